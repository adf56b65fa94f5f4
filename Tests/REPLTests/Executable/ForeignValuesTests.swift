import Foundation
import Testing

/// Values another program may write into the database (the schema accepts them) never trap:
/// dates of 1e300 or infinity, a frequency of Int64.max. Each is shown bounded or refused with
/// a sentence naming what is wrong.
@Suite("tidings and values written by another program", .serialized)
struct ForeignValuesTests {
    /// Runs `sql` on the database with Python's sqlite3 (another program, as a user's would be).
    func write(_ sql: String, to database: URL) throws {
        let python = ChildProcess()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
            database.path, sql,
        ]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0, "\(sql)")
    }

    @Test("article dates of 1e300 or ±infinity and task dates and frequencies past any calendar show or fail in words")
    func extremeValues() async throws {
        try await withSiteAndHome { site, home in
            try ReadingTests.feed(paragraphs: 1).write(
                to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            let setup = try TidingsBinary.run([
                "--home", home.path, "-c", "feed add \(site.path)/f.xml", "-c", "task add Gutters --every 1 year",
            ])
            #expect(setup.status == 0, "\(setup.err)")
            let database = home.appendingPathComponent("tidings.sqlite")
            for value in ["1e300", "9e999", "-9e999", "-1e300"] {
                try write(
                    """
                    UPDATE article SET published = \(value), updated = \(value);
                    UPDATE task SET dueDate = \(value), anchorDate = \(value), createdAt = \(value), modifiedAt = \(value);
                    """, to: database)
                for command in ["items", "item show 1 --no-pager", "task list", "task done 1", "task undo"] {
                    for json in [false, true] {
                        let run = try TidingsBinary.run(
                            ["--home", home.path] + (json ? ["--json"] : []) + ["-c", command])
                        // A trap ends the process by a signal (status 128+ from a shell; Process
                        // reports the signal number with an uncaught-signal reason).
                        #expect(run.status == 0 || run.status == 1, "\(value) \(command): \(run.status) \(run.err)")
                        #expect(!run.err.contains("Fatal error") && !run.err.contains("Crash"), "\(run.err)")
                        if run.status == 1 { #expect(run.err.hasPrefix("error: "), "\(run.err)") }
                    }
                }
            }
            try write(
                "UPDATE task SET frequencyCount = 9223372036854775807, dueDate = 0, anchorDate = 0;", to: database)
            let done = try TidingsBinary.run(["--home", home.path, "-c", "task done 1", "-c", "task list"])
            #expect(done.status == 0 || done.err.hasPrefix("error: "), "\(done.status) \(done.err)")
        }
    }
}
