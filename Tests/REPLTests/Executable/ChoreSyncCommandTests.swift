import CalDAVTestSupport
import Foundation
import Testing

/// `task sync` as a user runs it: the real binary against a real Radicale, with the password
/// in `~/.netrc` or in the environment.
@Suite("task sync, end to end", .timeLimit(.minutes(10)))
struct ChoreSyncCommandTests {
    /// A temporary home and `$HOME` (with a `~/.netrc` for the server) for one test.
    struct Home {
        let directory: URL
        var tidings: String { directory.appendingPathComponent("tidings").path }
        var environment: [String: String] { ["HOME": directory.path, "TIDINGS_CALDAV_PASSWORD": ""] }

        init(netrc: String?) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tidings-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if let netrc { try Data(netrc.utf8).write(to: directory.appendingPathComponent(".netrc")) }
        }

        func run(_ commands: [String], json: Bool = false, environment extra: [String: String] = [:]) throws
            -> TidingsBinary.Result
        {
            try TidingsBinary.run(
                ["--home", tidings] + (json ? ["--json"] : []) + commands.flatMap { ["-c", $0] },
                environment: environment.merging(extra) { _, new in new })
        }
    }

    static func netrc(_ server: CalDAVTestServer, password: String? = nil) -> String {
        "machine 127.0.0.1\n  login \(server.user)\n  password \"\(password ?? server.password)\"\n"
    }

    @Test("set up with ~/.netrc, sync, and status: the summary, the JSON shapes, and never the password")
    func setUpAndSync() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let a = try Home(netrc: Self.netrc(server))
            defer { try? FileManager.default.removeItem(at: a.directory) }
            let setUp = try a.run(["task sync setup \(chores.absoluteString)"])
            #expect(setUp.status == 0, "\(setUp.err)")
            #expect(
                setUp.out.hasPrefix("sharing chores with \(chores.absoluteString) (\"alice/chores\") as alice;"),
                "\(setUp.out)")
            let added = try a.run([
                "task add \"Take out the bins\" --due 2026-11-24 --every 1 week", "task add Dishes", "task sync",
            ])
            #expect(added.status == 0, "\(added.err)")
            #expect(added.out.contains("synced: sent 2, received 0, deleted 0, 0 conflicts"), "\(added.out)")

            let status = try a.run(["task sync status"], json: true)
            #expect(status.status == 0, "\(status.err)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any], "\(status.out)")
            #expect(document["url"] as? String == chores.absoluteString)
            #expect(document["user"] as? String == "alice")
            #expect(document["shared"] as? Int == 2 && document["pending"] as? Int == 0)
            let last = try #require(document["last_sync"] as? [String: Any])
            #expect(last["result"] as? String == "sent 2, received 0, deleted 0, 0 conflicts")

            // A second home with the password in the environment and no ~/.netrc.
            let b = try Home(netrc: nil)
            defer { try? FileManager.default.removeItem(at: b.directory) }
            let secret = ["TIDINGS_CALDAV_PASSWORD": server.password]
            let missing = try b.run(["task sync setup \(chores.absoluteString)"])
            #expect(missing.status == 1)
            #expect(missing.err.contains("no password for 127.0.0.1"), "\(missing.err)")
            let noUser = try b.run(["task sync setup \(chores.absoluteString)"], environment: secret)
            #expect(noUser.status == 1)
            #expect(noUser.err.contains("TIDINGS_CALDAV_PASSWORD is set but no user is named"), "\(noUser.err)")
            let synced = try b.run(
                ["task sync setup \(chores.absoluteString) --user alice", "task sync", "task list"], json: true,
                environment: secret)
            #expect(synced.status == 0, "\(synced.err)")
            let lines = synced.out.split(separator: "\n")
            #expect(lines.count == 3)
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any], "\(synced.out)")
            #expect(summary["received"] as? Int == 2 && summary["sent"] as? Int == 0)
            #expect(
                (summary["conflicts"] as? [Any])?.isEmpty == true && (summary["skipped"] as? [Any])?.isEmpty == true)
            #expect(lines[2].contains("\"name\":\"Take out the bins\"") && lines[2].contains("\"due\":\"2026-11-24\""))

            for result in [setUp, added, status, missing, synced] {
                #expect(!result.out.contains(server.password) && !result.err.contains(server.password))
            }
            let database = try Data(
                contentsOf: URL(fileURLWithPath: b.tidings).appendingPathComponent("tidings.sqlite"))
            #expect(database.range(of: Data(server.password.utf8)) == nil)
        }
    }

    @Test(
        "a wrong password, a collection that is not a calendar, and a plain-http server elsewhere each fail with one reason and exit 1"
    )
    func failures() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let book = try server.makeAddressBook("contacts")
            let home = try Home(netrc: Self.netrc(server, password: "wrong"))
            defer { try? FileManager.default.removeItem(at: home.directory) }
            let wrong = try home.run(["task sync setup \(chores.absoluteString)"])
            #expect(wrong.status == 1)
            #expect(wrong.err.contains("error: the server refused the password of alice (HTTP 401)"), "\(wrong.err)")
            let secret = ["TIDINGS_CALDAV_PASSWORD": server.password]
            let notCalendar = try home.run(
                ["task sync setup \(book.absoluteString) --user alice"], environment: secret)
            #expect(notCalendar.status == 1)
            #expect(notCalendar.err.contains("is not a calendar collection"), "\(notCalendar.err)")
            let insecure = try home.run(
                ["task sync setup http://dav.example.org/alice/chores/ --user alice"], environment: secret)
            #expect(insecure.status == 1)
            #expect(insecure.err.contains("is not https"), "\(insecure.err)")
            let notSetUp = try home.run(["task sync"], json: true)
            #expect(notSetUp.status == 1)
            #expect(notSetUp.out.contains("\"code\":\"not_set_up\""), "\(notSetUp.out)")
        }
    }

    @Test("an interactive session syncs in the background after a task change; a script syncs only when asked")
    func background() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let home = try Home(netrc: Self.netrc(server))
            defer { try? FileManager.default.removeItem(at: home.directory) }
            let objects = server.storage.appendingPathComponent("collection-root/alice/chores")
            func count() throws -> Int {
                try FileManager.default.contentsOfDirectory(atPath: objects.path).filter { $0.hasSuffix(".ics") }.count
            }
            let script = try home.run(["task sync setup \(chores.absoluteString)", "task add \"From a script\""])
            #expect(script.status == 0, "\(script.err)")
            #expect(try count() == 0)

            let terminal = try TerminalSession(
                arguments: ["--home", home.tidings], environment: home.environment)
            #expect(terminal.waitFor("tidings> "))
            // The sync at start sends the script's task (polled without awaiting, for up to
            // 60 s: on a busy machine an await can resume seconds late).
            var deadline = ContinuousClock.now + .seconds(60)
            while try count() < 1, ContinuousClock.now < deadline { usleep(100_000) }
            #expect(try count() == 1, "\(terminal.transcript)")
            terminal.type("task add \"From the prompt\"\r")
            #expect(terminal.waitFor("added task #2"), "\(terminal.transcript)")
            #expect(terminal.waitFor("tidings> "))
            deadline = ContinuousClock.now + .seconds(60)
            while try count() < 2, ContinuousClock.now < deadline { usleep(100_000) }
            #expect(try count() == 2, "\(terminal.transcript)")
            // What the background sync did is shown before the next prompt (the sync may still
            // be saving its result when the object appears on the server).
            var shown = false
            for _ in 0..<120 where !shown {
                terminal.type("\r")
                shown = terminal.waitFor("chores synced: sent 1", seconds: 0.5)
            }
            #expect(shown, "\(terminal.transcript)")
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test(
        "task sync setup --list gives a list a collection of its own: status shows each collection (text and JSON), task sync syncs both, task sync stop --list ends it, and mistakes are refused in words"
    )
    func listCollections() async throws {
        try await withRadicale { server in
            let (chores, groceries) = (try server.makeCalendar("chores"), try server.makeCalendar("groceries"))
            let home = try Home(netrc: Self.netrc(server))
            defer { try? FileManager.default.removeItem(at: home.directory) }
            let setUp = try home.run([
                "task sync setup \(chores.absoluteString)",
                "task sync setup \(groceries.absoluteString) --list groceries",
                "task add Milk --list Groceries", "task add Bins", "task sync", "task sync status",
            ])
            #expect(setUp.status == 0, "\(setUp.err)")
            #expect(
                setUp.out.contains(
                    "sharing the list \"groceries\" with \(groceries.absoluteString) (\"alice/groceries\") as alice;"),
                "\(setUp.out)")
            #expect(setUp.out.contains("synced: sent 2, received 0, deleted 0, 0 conflicts"), "\(setUp.out)")
            #expect(
                setUp.out.contains(
                    """
                    sharing chores with \(chores.absoluteString) as alice
                    """), "\(setUp.out)")
            #expect(
                setUp.out.contains("sharing the list \"groceries\" with \(groceries.absoluteString) as alice"),
                "\(setUp.out)")
            #expect(setUp.out.components(separatedBy: "1 task shared, 0 changes to send").count == 3, "\(setUp.out)")

            let status = try home.run(["task sync status"], json: true)
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any], "\(status.out)")
            #expect(document["url"] as? String == chores.absoluteString)
            let lists = try #require(document["lists"] as? [[String: Any]])
            #expect(lists.count == 1)
            #expect(lists.first?["list"] as? String == "groceries")
            #expect(lists.first?["url"] as? String == groceries.absoluteString)
            #expect(lists.first?["shared"] as? Int == 1 && lists.first?["pending"] as? Int == 0)

            let same = try home.run(["task sync setup \(chores.absoluteString) --list errands"])
            #expect(same.status == 1)
            #expect(same.err.contains("is the collection of the other lists"), "\(same.err)")
            let unknown = try home.run(["task sync stop --list errands"])
            #expect(unknown.status == 1)
            #expect(unknown.err.contains("the list \"errands\" has no collection of its own"), "\(unknown.err)")

            let stopped = try home.run(["task sync stop --list groceries", "task sync", "task sync status"])
            #expect(stopped.status == 0, "\(stopped.err)")
            #expect(stopped.out.contains("synced: sent 1, received 0, deleted 0, 0 conflicts"), "\(stopped.out)")
            #expect(stopped.out.contains("2 tasks shared, 0 changes to send"), "\(stopped.out)")
            #expect(!stopped.out.contains("the list \"groceries\" with"), "\(stopped.out)")
            let all = try home.run(["task sync stop", "task sync status"])
            #expect(all.out.contains("chores are not shared: set up"), "\(all.out)")
        }
    }
}
