import Testing

@testable import Models

@Suite("Snapshot")
struct SnapshotTests {
    private func snapshot(_ sections: [(String, [Int])]) throws -> Snapshot<String, Int> {
        var snapshot = Snapshot<String, Int>()
        for (section, items) in sections {
            try snapshot.appendSections([section])
            try snapshot.appendItems(items, toSection: section)
        }
        return snapshot
    }

    @Test("appending an identifier already present is an error naming it, and appends nothing")
    func duplicateItemsAreRefused() throws {
        var snapshot = try snapshot([("a", [1, 2])])
        #expect(throws: SnapshotError.duplicateItem("2")) { try snapshot.appendItems([3, 2]) }
        #expect(snapshot.itemIdentifiers == [1, 2])
        #expect(throws: SnapshotError.duplicateItem("4")) { try snapshot.appendItems([4, 4]) }
        try snapshot.appendSections(["b"])
        #expect(throws: SnapshotError.duplicateItem("1")) { try snapshot.appendItems([1], toSection: "b") }
        #expect(throws: SnapshotError.duplicateSection("a")) { try snapshot.appendSections(["a"]) }
        #expect(SnapshotError.duplicateItem("2").description.contains("duplicate item identifier 2"))
    }

    @Test("items go to the last section unless one is named; no section is an error")
    func appendTargets() throws {
        var empty = Snapshot<String, Int>()
        #expect(throws: SnapshotError.noSection) { try empty.appendItems([1]) }
        #expect(throws: SnapshotError.unknownSection("x")) {
            try empty.appendSections(["a"])
            try empty.appendItems([1], toSection: "x")
        }
        var snapshot = try snapshot([("a", [1]), ("b", [2])])
        try snapshot.appendItems([3])
        try snapshot.appendItems([4], toSection: "a")
        #expect(snapshot.itemIdentifiers(inSection: "a") == [1, 4])
        #expect(snapshot.itemIdentifiers == [1, 4, 2, 3])
        #expect(snapshot.sectionIdentifier(containingItem: 3) == "b")
        #expect(snapshot.numberOfItems == 4)
    }

    @Test("deleting items and deleting all")
    func deleting() throws {
        var snapshot = try snapshot([("a", [1, 2, 3]), ("b", [4])])
        snapshot.deleteItems([2, 4, 99])
        #expect(snapshot.itemIdentifiers == [1, 3])
        #expect(snapshot.sectionIdentifiers == ["a", "b"])
        try snapshot.appendItems([2], toSection: "b")  // a deleted identifier can come back
        snapshot.deleteAllItems()
        #expect(snapshot.itemIdentifiers.isEmpty && snapshot.sectionIdentifiers.isEmpty)
    }

    @Test("difference: inserts, deletes and reloads; a reloaded item is not a delete plus insert")
    func insertsDeletesReloads() throws {
        let old = try snapshot([("a", [1, 2, 3])])
        var new = try snapshot([("a", [1, 3, 4])])
        new.reloadItems([3, 4, 42])
        let difference = new.difference(from: old)
        #expect(difference.inserted == [4])
        #expect(difference.deleted == [2])
        #expect(difference.moved.isEmpty)
        #expect(difference.reloaded == [3])  // 4 is new, 42 is unknown
        #expect(try snapshot([("a", [1, 2])]).difference(from: snapshot([("a", [1, 2])])).isEmpty)
    }

    @Test("difference: the fewest moves, and a change of section is a move")
    func moves() throws {
        let old = try snapshot([("a", [1, 2, 3, 4, 5])])
        let new = try snapshot([("a", [5, 1, 2, 3, 4])])
        let difference = new.difference(from: old)
        #expect(difference.moved == [.init(item: 5, from: 4, to: 0)])
        #expect(difference.inserted.isEmpty && difference.deleted.isEmpty)

        let split = try snapshot([("a", [1, 2]), ("b", [3, 4, 5])])
        let regrouped = try snapshot([("a", [1, 2, 3]), ("b", [4, 5])])
        #expect(regrouped.difference(from: split).moved == [.init(item: 3, from: 2, to: 2)])
    }
}

@Suite("StatePublisher")
struct StatePublisherTests {
    @Test("every subscriber gets the current value first, then each value sent, on its own stream")
    func subscribersGetTheirOwnStreams() async {
        let publisher = StatePublisher(0)
        let first = publisher.values()
        publisher.send(1)
        let second = publisher.values()
        publisher.send(2)
        publisher.finish()
        var firstValues: [Int] = []
        for await value in first { firstValues.append(value) }
        var secondValues: [Int] = []
        for await value in second { secondValues.append(value) }
        #expect(firstValues == [0, 1, 2])
        #expect(secondValues == [1, 2])
        #expect(publisher.value == 2)
    }
}
