import CalDAVTestSupport
import Foundation
import Testing

@testable import Chores

/// Tidings beside the reference CalDAV client (python-caldav, reading and writing with the
/// icalendar library) on one Radicale: each reads what the other wrote.
@Suite("Chore sync beside python-caldav", .timeLimit(.minutes(10)))
struct ChoreSyncPeerTests {
    /// Runs Tests/Support/caldav_client.py and returns what it printed.
    static func peer(_ server: CalDAVTestServer, _ arguments: [String], path: String = "/alice/chores/") throws
        -> String
    {
        let script = CalDAVTestServer.packageRoot.appendingPathComponent("Tests/Support/caldav_client.py").path
        let output = try runTool(
            CalDAVTestServer.python, [script, server.base.absoluteString, server.user, server.password, path] + arguments)
        return String(decoding: output, as: UTF8.self)
    }

    struct Todo: Decodable, Equatable {
        var summary: String
        var description: String?
        var due: String?
        var rrule: String?
        var status: String?
        var completed: String?
    }

    @Test(
        "python-caldav reads Tidings' chores field for field (folded, escaped, UTF-8), and Tidings reads and follows its chores",
        arguments: CalDAVTestServer.Kind.allCases)
    func bothWays(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let chores = try server.makeCalendar("chores")
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            let note = "green, then blue;\nthe truck comes at six \\ 🚛 — not on holidays"
            let long =
                "Sort the cellar shelves by season, label every box, and take the empties to the recycling centre"
            _ = try await home.tasks.add(
                name: "Bins", note: note, due: ChoreObjectTests.day("2026-11-24"), frequency: try .every(1, .week))
            _ = try await home.tasks.add(name: long, due: ChoreObjectTests.day("2026-12-01"))
            let passport = try await home.tasks.add(name: "Renew the passport")
            _ = try await home.tasks.complete(id: try #require(passport.id))
            _ = try await home.sync.sync()

            let read = try JSONDecoder().decode([Todo].self, from: Data(try Self.peer(server, ["list"]).utf8))
            #expect(
                read == [
                    Todo(
                        summary: "Bins", description: note, due: "2026-11-24", rrule: "FREQ=WEEKLY;INTERVAL=1",
                        status: "NEEDS-ACTION", completed: nil),
                    Todo(
                        summary: "Renew the passport", description: nil, due: nil, rrule: nil, status: "COMPLETED",
                        completed: "2026-11-23T12:00:00+00:00"),
                    Todo(
                        summary: long, description: nil, due: "2026-12-01", rrule: nil, status: "NEEDS-ACTION",
                        completed: nil),
                ])

            _ = try Self.peer(server, ["add", "py-1", "Descale the kettle", "2026-12-05", "FREQ=MONTHLY;INTERVAL=2"])
            let uid = try #require(
                try await CalDAVClientTests.client(server, chores).fetch(
                    try await CalDAVClientTests.client(server, chores).members().map(\.href)
                ).compactMap { try? ChoreObject(parsing: $0.icalendar ?? "") }.first {
                    (try? $0.fields(calendar: ChoreHome.utc).name) == long
                }?.uid)
            _ = try Self.peer(server, ["complete", uid])
            let summary = try await home.sync.sync()
            #expect(summary.received == 2 && summary.conflicts.isEmpty && summary.problems.isEmpty, "\(summary)")
            #expect(
                try await home.list().contains(
                    .init(
                        name: "Descale the kettle", note: nil, due: "2026-12-05", every: "every 2 months", done: false))
            )
            #expect(try await home.task(long).isDone)
        }
    }
}
