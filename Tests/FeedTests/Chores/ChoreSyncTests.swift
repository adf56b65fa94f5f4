import Foundation
import Networking
import Testing

@testable import Feed

/// Two homes sharing their chores through one real Radicale.
@Suite("Chore sync: two homes", .timeLimit(.minutes(2)))
struct ChoreSyncTests {
    @Test(
        "a chore added on A appears on B with every field; a change on B reaches A; a sync with nothing new changes nothing"
    )
    func addAndEdit() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let (a, b) = (try ChoreHome(server), try ChoreHome(server))
            try await a.setUp(server, chores)
            try await b.setUp(server, chores)
            _ = try await a.tasks.add(
                name: "Take out the bins", note: "green one; then\nthe blue one", due: try choreDay("2026-11-24"),
                frequency: try .every(1, .week))
            _ = try await a.tasks.add(name: "Call the plumber, today")
            let first = try await a.sync.sync()
            #expect(first.sent == 2 && first.received == 0 && first.conflicts.isEmpty && first.problems.isEmpty)
            let received = try await b.sync.sync()
            #expect(received.received == 2 && received.sent == 0)
            #expect(try await b.list() == a.list())
            #expect(try await b.task("Take out the bins").anchorDate == (try choreDay("2026-11-24")))

            let bins = try await b.task("Take out the bins")
            _ = try await b.tasks.edit(
                id: try #require(bins.id), name: "Bins", note: .clear, due: .set(try choreDay("2026-11-26")),
                frequency: .set(try .every(2, .week)))
            #expect(try await b.sync.sync().sent == 1)
            #expect(try await a.sync.sync().received == 1)
            #expect(try await a.list() == b.list())
            #expect(
                try await a.list().contains(
                    .init(name: "Bins", note: nil, due: "2026-11-26", every: "every 2 weeks", done: false)))

            for home in [a, b] {
                let again = try await home.sync.sync()
                #expect(again.sent == 0 && again.received == 0 && again.deleted == 0, "\(again)")
            }
        }
    }

    @Test("completing a recurring chore on B moves A to the next due date and A keeps the completion")
    func completeRecurring() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let (a, b) = (try ChoreHome(server), try ChoreHome(server))
            try await a.setUp(server, chores)
            try await b.setUp(server, chores)
            let added = try await a.tasks.add(
                name: "Water the plants", due: try choreDay("2026-11-20"), frequency: try .every(3, .day))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            let onB = try await b.task("Water the plants")
            let done = try await b.tasks.complete(id: try #require(onB.id))
            #expect(done.dueDay == "2026-11-26")
            _ = try await b.sync.sync()
            #expect(try await a.sync.sync().received == 1)
            let onA = try await a.task("Water the plants")
            #expect(onA.dueDay == "2026-11-26" && !onA.isDone)
            // The rhythm still counts from the first due date, and the completion is recorded.
            #expect(onA.anchorDate == added.anchorDate)
            let completions = try await a.tasks.completions(id: try #require(onA.id))
            #expect(completions.map(\.completedAt) == [ChoreHome.now])
            #expect(try completions.first?.dueDate == choreDay("2026-11-20"))
            // Nothing goes back and forth afterwards.
            #expect(try await a.sync.sync() == ChoreSyncSummary())
            #expect(try await b.sync.sync() == ChoreSyncSummary())
            // A one-off chore done on A is done on B.
            let once = try await a.tasks.add(name: "Renew the passport")
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            _ = try await a.tasks.complete(id: try #require(once.id))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            #expect(try await b.task("Renew the passport").isDone)
        }
    }

    @Test("edits on both sides while offline end in one merged chore, the conflict reported, nothing lost")
    func offlineEdits() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let (a, b) = (try ChoreHome(server), try ChoreHome(server))
            try await a.setUp(server, chores)
            try await b.setUp(server, chores)
            _ = try await a.tasks.add(name: "Clean the gutters", due: try choreDay("2026-12-01"))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            // Offline: A changes the note and the name, B the due date and the name.
            let onA = try #require(try await a.task("Clean the gutters").id)
            let onB = try #require(try await b.task("Clean the gutters").id)
            _ = try await a.tasks.edit(id: onA, name: "Clean the gutters (front)", note: .set("ladder in the shed"))
            _ = try await b.tasks.edit(id: onB, name: "Gutters", due: .set(try choreDay("2026-12-05")))
            #expect(try await b.sync.sync().sent == 1)
            let merged = try await a.sync.sync()
            #expect(merged.conflicts.map(\.fields) == [["name"]])
            #expect(merged.conflicts.first?.task == "Clean the gutters (front)")
            #expect(merged.sent == 1)
            _ = try await b.sync.sync()
            let expected = ChoreHome.Listed(
                name: "Gutters", note: "ladder in the shed", due: "2026-12-05", every: nil, done: false)
            #expect(try await a.list() == [expected])
            #expect(try await b.list() == [expected])
        }
    }

    @Test("a chore deleted on A is gone on B; one deleted on A while B changed it comes back with B's change")
    func deletions() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let (a, b) = (try ChoreHome(server), try ChoreHome(server))
            try await a.setUp(server, chores)
            try await b.setUp(server, chores)
            let bins = try await a.tasks.add(name: "Bins")
            let dishes = try await a.tasks.add(name: "Dishes")
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            try await a.tasks.remove(id: try #require(bins.id))
            #expect(try await a.sync.sync().deleted == 1)
            #expect(try await b.sync.sync().deleted == 1)
            #expect(try await b.list().map(\.name) == ["Dishes"])
            #expect(try ChoreSyncTests.objects(server, "chores").count == 1)

            // Deleted on A, changed on B meanwhile: B's change wins over the deletion.
            try await a.tasks.remove(id: try #require(dishes.id))
            _ = try await b.tasks.edit(id: try #require(try await b.task("Dishes").id), note: .set("and the pans"))
            _ = try await b.sync.sync()
            let back = try await a.sync.sync()
            #expect(back.conflicts.count == 1 && back.deleted == 0)
            #expect(try await a.list().map(\.note) == ["and the pans"])

            // Changed on A, deleted on B: kept and shared again.
            _ = try await a.tasks.edit(id: try #require(try await a.task("Dishes").id), name: "Dishes and pans")
            try await b.tasks.remove(id: try #require(try await b.task("Dishes").id))
            _ = try await b.sync.sync()
            let kept = try await a.sync.sync()
            #expect(kept.conflicts.count == 1 && kept.sent == 1)
            _ = try await b.sync.sync()
            #expect(try await b.list().map(\.name) == ["Dishes and pans"])
            #expect(try ChoreSyncTests.objects(server, "chores").count == 1)
        }
    }

    /// The `.ics` files Radicale keeps for a collection.
    static func objects(_ server: RadicaleServer, _ name: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: server.storage.appendingPathComponent("collection-root/\(server.user)/\(name)"),
            includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "ics" }
    }
}
