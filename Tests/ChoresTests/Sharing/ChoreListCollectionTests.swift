import CalDAVTestSupport
import Foundation
import Models
import Testing

@testable import Chores

/// Lists shared through collections of their own, as Reminders and tasks.org keep one list per
/// collection: a real Radicale, a second Tidings home and python-caldav.
@Suite("Chore lists in collections of their own", .timeLimit(.minutes(10)))
struct ChoreListCollectionTests {
    struct Todo: Decodable, Equatable {
        var summary: String
        var related_to: String?
        var x_list: String?
        var uid: String
    }

    static func todos(_ server: CalDAVTestServer, _ name: String) throws -> [Todo] {
        try JSONDecoder().decode(
            [Todo].self, from: Data(ChoreSyncPeerTests.peer(server, ["list"], path: "/alice/\(name)/").utf8))
    }

    static func listed(_ home: ChoreHome) async throws -> [String] {
        try await home.tasks.list(.all).map { "\($0.name)@\($0.list ?? "-")" }.sorted()
    }

    /// Two homes sharing the other lists through "chores" and the groceries list through its own
    /// "groceries" collection.
    static func twoHomesWithGroceries(_ server: CalDAVTestServer) async throws -> (ChoreHome, ChoreHome) {
        let (chores, groceries) = (try server.makeCalendar("chores"), try server.makeCalendar("groceries"))
        let (a, b) = (try ChoreHome(server), try ChoreHome(server))
        for home in [a, b] {
            try await home.setUp(server, chores)
            try await home.sync.setUp(collection: groceries, user: server.user, list: "groceries")
        }
        return (a, b)
    }

    static func list(_ name: String?) -> TaskDetailChanges {
        var details = TaskDetailChanges()
        details.list = name.map { .set($0) } ?? .clear
        return details
    }

    @Test(
        "each list set up with a collection lives there alone (without X-TIDINGS-LIST), the rest in the other; a second home and python-caldav see the same; a chore another client adds to a list's collection is in that list"
    )
    func listsInTheirOwnCollections() async throws {
        try await withCalDAVServer(.radicale) { server in
            let (a, b) = try await Self.twoHomesWithGroceries(server)
            _ = try await a.tasks.add(name: "Bins")
            let milk = try await a.tasks.add(name: "Milk", details: Self.list("Groceries"))
            var under = Self.list("groceries")
            under.parentID = .set(try #require(milk.id))
            _ = try await a.tasks.add(name: "Oat milk", details: under)
            let first = try await a.sync.sync()
            #expect(first.sent == 3 && first.problems.isEmpty, "\(first)")
            #expect(try Self.todos(server, "chores").map(\.summary) == ["Bins"])
            let shared = try Self.todos(server, "groceries")
            #expect(shared.map(\.summary) == ["Milk", "Oat milk"])
            #expect(shared.allSatisfy { $0.x_list == nil }, "\(shared)")
            #expect(shared[1].related_to == shared[0].uid)

            _ = try await b.sync.sync()
            #expect(try await Self.listed(b) == ["Bins@-", "Milk@groceries", "Oat milk@groceries"])
            #expect(try await b.task("Oat milk").parentID == b.task("Milk").id)

            // Reminders-style: a chore added to the groceries collection is on the groceries list.
            _ = try ChoreSyncPeerTests.peer(server, ["add", "eggs-1", "Eggs", "2026-11-25", ""], path: "/alice/groceries/")
            for home in [b, a] { _ = try await home.sync.sync() }
            #expect(try await Self.listed(a) == ["Bins@-", "Eggs@Groceries", "Milk@Groceries", "Oat milk@Groceries"])
            #expect(try await Self.listed(b).contains("Eggs@groceries"))

            // Status: one line per collection, nothing pending once synced.
            let statuses = try await a.sync.statuses()
            #expect(statuses.map(\.list) == [nil, "groceries"])
            #expect(statuses.map(\.shared) == [1, 3] && statuses.map(\.pending) == [0, 0], "\(statuses)")
        }
    }

    @Test(
        "a chore moved to another list leaves its collection for the other in one sync (a new UID); the other home follows with one task, its step still under it"
    )
    func moveBetweenCollections() async throws {
        try await withCalDAVServer(.radicale) { server in
            let (a, b) = try await Self.twoHomesWithGroceries(server)
            let party = try await a.tasks.add(name: "Party", details: Self.list("groceries"))
            var under = Self.list("groceries")
            under.parentID = .set(try #require(party.id))
            _ = try await a.tasks.add(name: "Candles", details: under)
            _ = try await a.tasks.complete(id: try #require(party.id))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            let before = try Self.todos(server, "groceries").first { $0.summary == "Party" }?.uid

            // The parent moves to the default list, so to the other collection.
            _ = try await a.tasks.edit(id: try #require(party.id), details: Self.list(nil))
            #expect(try await a.sync.statuses().map(\.pending) == [1, 1])
            let moved = try await a.sync.sync()
            #expect(moved.conflicts.isEmpty && moved.problems.isEmpty, "\(moved)")
            #expect(try Self.todos(server, "groceries").map(\.summary) == ["Candles"])
            let now = try Self.todos(server, "chores")
            #expect(now.map(\.summary) == ["Party"])
            #expect(now.first?.uid != before)
            #expect(now.first?.x_list == nil)
            #expect(try Self.todos(server, "groceries").first?.related_to == now.first?.uid)
            // Nothing is left to do: a second sync sends nothing.
            let quiet = try await a.sync.sync()
            #expect(quiet.sent == 0 && quiet.deleted == 0 && quiet.received == 0, "\(quiet)")

            _ = try await b.sync.sync()
            #expect(try await Self.listed(b) == ["Candles@groceries", "Party@-"])
            let partyOnB = try await b.task("Party")
            #expect(partyOnB.isDone)
            #expect(try await b.task("Candles").parentID == partyOnB.id)
            #expect(try await b.tasks.completions(id: try #require(partyOnB.id)).count == 1)
        }
    }

    @Test(
        "setting up a list's collection moves its chores out of the shared one; stopping it brings them back; a list named in another case joins"
    )
    func setUpAndStop() async throws {
        try await withCalDAVServer(.radicale) { server in
            let (chores, groceries) = (try server.makeCalendar("chores"), try server.makeCalendar("groceries"))
            let a = try ChoreHome(server)
            try await a.setUp(server, chores)
            _ = try await a.tasks.add(name: "Milk", details: Self.list("Groceries"))
            _ = try await a.sync.sync()
            #expect(try Self.todos(server, "chores").map(\.x_list) == ["Groceries"])

            try await a.sync.setUp(collection: groceries, user: server.user, list: "GROCERIES")
            #expect(try await a.sync.statuses().map(\.list) == [nil, "Groceries"])
            _ = try await a.sync.sync()
            #expect(try Self.todos(server, "chores").isEmpty)
            #expect(try Self.todos(server, "groceries").map(\.summary) == ["Milk"])

            try await a.sync.stopSharing(list: "groceries")
            #expect(try await a.sync.statuses().map(\.list) == [nil])
            _ = try await a.sync.sync()
            #expect(try Self.todos(server, "chores").map(\.x_list) == ["Groceries"])
            // The list's collection is left as it was: stopping shares nothing less there.
            #expect(try Self.todos(server, "groceries").map(\.summary) == ["Milk"])
            #expect(try await Self.listed(a) == ["Milk@Groceries"])

            // Stopping a list without a collection of its own is refused in words.
            await #expect(throws: ChoreSyncError.invalid("the list \"errands\" has no collection of its own")) {
                try await a.sync.stopSharing(list: "errands")
            }
        }
    }

    @Test("a collection another list uses, or one inside it, is refused in words; a list name the rules refuse too")
    func overlapsRefused() async throws {
        try await withCalDAVServer(.radicale) { server in
            let chores = try server.makeCalendar("chores")
            let a = try ChoreHome(server)
            try await a.setUp(server, chores)
            do throws(ChoreSyncError) {
                try await a.sync.setUp(collection: chores, user: server.user, list: "groceries")
                Issue.record("the same collection was taken twice")
            } catch {
                guard case .invalid(let reason) = error else { throw error }
                #expect(reason.contains("is the collection of the other lists"), "\(reason)")
            }
            do throws(ChoreSyncError) {
                try await a.sync.setUp(
                    collection: chores.appendingPathComponent("inner/"), user: server.user, list: "groceries")
                Issue.record("a collection inside another was taken")
            } catch {
                guard case .invalid(let reason) = error else { throw error }
                #expect(reason.contains("overlaps the collection of the other lists"), "\(reason)")
            }
            do throws(ChoreSyncError) {
                try await a.sync.setUp(collection: chores, user: server.user, list: "  ")
                Issue.record("a blank list name was taken")
            } catch {
                guard case .invalid(let reason) = error else { throw error }
                #expect(reason.contains("list"), "\(reason)")
            }
            #expect(try await a.sync.statuses().count == 1)
        }
    }

    @Test("with only a list's collection set up, that list alone is shared; the other chores stay here")
    func onlyAList() async throws {
        try await withCalDAVServer(.radicale) { server in
            let groceries = try server.makeCalendar("groceries")
            let a = try ChoreHome(server)
            try await a.sync.setUp(collection: groceries, user: server.user, list: "groceries")
            _ = try await a.tasks.add(name: "Bins")
            _ = try await a.tasks.add(name: "Milk", details: Self.list("groceries"))
            let summary = try await a.sync.sync()
            #expect(summary.sent == 1, "\(summary)")
            #expect(try Self.todos(server, "groceries").map(\.summary) == ["Milk"])
            #expect(try await a.sync.status() == nil)
            #expect(try await a.sync.statuses().map(\.pending) == [0])
        }
    }

    @Test(
        "a move between collections cut at any request, before or after the server acted, completes at the next sync: one chore, in the new collection, no conflict"
    )
    func interruptedMove() async throws {
        try await withCalDAVServer(.radicale) { server in
            var requests = Int.max
            var cut = 0
            while cut <= requests {
                for afterTheServerActed in cut == 0 ? [false] : [false, true] {
                    let name = "c\(cut)\(afterTheServerActed ? "a" : "b")"
                    let chores = try server.makeCalendar("\(name)-chores")
                    let groceries = try server.makeCalendar("\(name)-groceries")
                    let transport = ShapedTransport()
                    let a = try ChoreHome(server, transport: transport)
                    let b = try ChoreHome(server)
                    for home in [a, b] {
                        try await home.setUp(server, chores)
                        try await home.sync.setUp(collection: groceries, user: server.user, list: "groceries")
                    }
                    let party = try await a.tasks.add(name: "Party", details: Self.list("groceries"))
                    _ = try await a.sync.sync()
                    _ = try await b.sync.sync()
                    _ = try await a.tasks.edit(id: try #require(party.id), details: Self.list(nil))
                    if cut == 0 {
                        transport.reset()
                        _ = try await a.sync.sync()
                        requests = transport.requests.count
                    } else {
                        let at = cut
                        transport.reset { _, number in
                            number == at ? (afterTheServerActed ? .loseAfter : .loseBefore) : .pass
                        }
                        await #expect(throws: ChoreSyncError.self, "request \(cut)") { try await a.sync.sync() }
                        transport.reset()
                        let resumed = try await a.sync.sync()
                        #expect(resumed.conflicts.isEmpty && resumed.problems.isEmpty, "request \(cut): \(resumed)")
                    }
                    #expect(try Self.todos(server, "\(name)-chores").map(\.summary) == ["Party"], "request \(cut)")
                    #expect(try Self.todos(server, "\(name)-groceries").isEmpty, "request \(cut)")
                    _ = try await b.sync.sync()
                    #expect(try await Self.listed(b) == ["Party@-"], "request \(cut)")
                    #expect(try await Self.listed(a) == ["Party@-"], "request \(cut)")
                    #expect(try await a.sync.sync() == ChoreSyncSummary(), "request \(cut)")
                }
                cut += 1
            }
            // Round one: the chores REPORT, the groceries REPORT and DELETE; round two: the
            // chores REPORT and PUT, the groceries REPORT.
            #expect(requests == 6)
        }
    }

    @Test("a chore changed on another home while moved to another list here keeps that change and moves once")
    func changedThereWhileMovedHere() async throws {
        try await withCalDAVServer(.radicale) { server in
            let (a, b) = try await Self.twoHomesWithGroceries(server)
            let party = try await a.tasks.add(name: "Party", details: Self.list("groceries"))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            _ = try await b.tasks.edit(id: try #require(try await b.task("Party").id), note: .set("Saturday"))
            _ = try await b.sync.sync()
            _ = try await a.tasks.edit(id: try #require(party.id), details: Self.list(nil))
            let summary = try await a.sync.sync()
            #expect(summary.conflicts.isEmpty && summary.problems.isEmpty, "\(summary)")
            #expect(try await a.task("Party").note == "Saturday")
            #expect(try Self.todos(server, "groceries").isEmpty)
            #expect(try Self.todos(server, "chores").map(\.summary) == ["Party"])
            _ = try await b.sync.sync()
            #expect(try await Self.listed(b) == ["Party@-"])
            #expect(try await b.task("Party").note == "Saturday")
        }
    }
}
