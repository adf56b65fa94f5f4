import CalDAVTestSupport
import Foundation
import Testing

@testable import Chores

/// Tidings beside a second real client: todoman, the terminal task manager, over a vdir that
/// vdirsyncer syncs with the same collection (the way todoman users share tasks through
/// CalDAV). Each side reads and changes what the other wrote.
@Suite("Chore sync beside todoman and vdirsyncer", .timeLimit(.minutes(10)))
struct ChoreSyncTodomanTests {
    /// A todoman and vdirsyncer set-up of its own, in a temporary folder, for `collection`.
    struct Todoman {
        let folder: URL

        init(_ server: CalDAVTestServer, _ collection: URL) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tidings-todoman-\(UUID().uuidString)")
            let vdir = folder.appendingPathComponent("vdir/chores")
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("todoman"), withIntermediateDirectories: true)
            let config = """
                [general]
                status_path = "\(folder.path)/status/"

                [pair chores]
                a = "chores_local"
                b = "chores_remote"
                collections = null

                [storage chores_local]
                type = "filesystem"
                path = "\(vdir.path)/"
                fileext = ".ics"

                [storage chores_remote]
                type = "caldav"
                url = "\(collection.absoluteString)"
                username = "\(server.user)"
                password = "\(server.password)"

                """
            try Data(config.utf8).write(to: folder.appendingPathComponent("vdirsyncer"))
            let todoman = """
                path = "\(folder.path)/vdir/*"
                date_format = "%Y-%m-%d"
                time_format = "%H:%M"
                default_list = "chores"

                """
            try Data(todoman.utf8).write(to: folder.appendingPathComponent("todoman/config.py"))
            _ = try run("vdirsyncer", ["-c", folder.appendingPathComponent("vdirsyncer").path, "discover"])
        }

        /// Syncs the vdir with the collection.
        func sync() throws {
            _ = try run("vdirsyncer", ["-c", folder.appendingPathComponent("vdirsyncer").path, "sync"])
        }

        /// `todo ARGUMENTS`, in UTC, with this set-up's configuration and cache.
        @discardableResult
        func todo(_ arguments: [String]) throws -> Data {
            try run("todo", arguments)
        }

        /// Every task, as todoman's stable JSON gives it.
        func list() throws -> [Todo] {
            try JSONDecoder().decode([Todo].self, from: todo(["--porcelain", "list", "--status", "ANY"]))
        }

        func id(_ summary: String) throws -> Int {
            try #require(try list().first { $0.summary == summary }, "todoman has no \(summary)").id
        }

        private func run(_ tool: String, _ arguments: [String]) throws -> Data {
            var environment = ProcessInfo.processInfo.environment
            environment["TZ"] = "UTC"
            environment["XDG_CONFIG_HOME"] = folder.path
            environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
            environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
            let executable = CalDAVTestServer.python.deletingLastPathComponent().appendingPathComponent(tool)
            return try runTool(executable, arguments, environment: environment)
        }
    }

    struct Todo: Decodable, Equatable {
        var id: Int
        var summary: String
        var description: String
        var due: Int?
        var recurring: Bool
        var completed: Bool
    }

    /// Midnight UTC of `day`, as todoman gives a date-only due date in UTC.
    static func midnight(_ day: String) throws -> Int {
        Int(ChoreObjectTests.day(day).timeIntervalSince1970)
    }

    @Test(
        "todoman reads Tidings' chores (notes, due days, recurrence), and Tidings reads todoman's new, done and edited tasks; both ways again after a recurring completion",
        arguments: CalDAVTestServer.Kind.allCases)
    func bothWays(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let chores = try server.makeCalendar("chores")
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            let todoman = try Todoman(server, chores)
            defer { try? FileManager.default.removeItem(at: todoman.folder) }
            _ = try await home.tasks.add(
                name: "Bins", note: "green, then blue; 🚛", due: ChoreObjectTests.day("2026-11-24"),
                frequency: try .every(1, .week))
            _ = try await home.tasks.add(name: "Dishes", note: "the big pan")
            _ = try await home.sync.sync()

            try todoman.sync()
            let read = try todoman.list().sorted { $0.summary < $1.summary }
            #expect(read.map(\.summary) == ["Bins", "Dishes"])
            #expect(read.map(\.description) == ["green, then blue; 🚛", "the big pan"])
            #expect(read.map(\.due) == [try Self.midnight("2026-11-24"), nil])
            #expect(read.map(\.recurring) == [true, false])

            // todoman: a new task, one done, one edited.
            try todoman.todo(["new", "Mop the floor", "--due", "2026-12-01", "--list", "chores"])
            try todoman.todo(["done", String(try todoman.id("Dishes"))])
            try todoman.todo(["edit", String(try todoman.id("Bins")), "--due", "2026-11-25"])
            try todoman.sync()
            let received = try await home.sync.sync()
            #expect(received.received == 3 && received.problems.isEmpty && received.conflicts.isEmpty, "\(received)")
            #expect(
                Set(try await home.list().map(\.description)) == [
                    "Bins|green, then blue; 🚛|2026-11-25|every week|false", "Dishes|the big pan|-|-|true",
                    "Mop the floor|-|2026-12-01|-|false",
                ])

            // Tidings: the recurring chore done, the new one given a note.
            _ = try await home.tasks.complete(id: try #require(try await home.task("Bins").id))
            _ = try await home.tasks.edit(
                id: try #require(try await home.task("Mop the floor").id), note: .set("under the table too"))
            #expect(try await home.sync.sync().sent == 2)
            try todoman.sync()
            let after = try todoman.list().sorted { $0.summary < $1.summary }
            #expect(after.map(\.summary) == ["Bins", "Dishes", "Mop the floor"])
            #expect(after.map(\.due) == [try Self.midnight("2026-12-02"), nil, try Self.midnight("2026-12-01")])
            #expect(after.map(\.completed) == [false, true, false])
            #expect(after.map(\.recurring) == [true, false, false])
            #expect(after.last?.description == "under the table too")
            #expect(try await home.sync.sync() == ChoreSyncSummary())
        }
    }
}
