import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The files Tidings writes: the home's are private whatever the umask, and a file the user
/// names is written as the user means it (a replaced file keeps its mode, a link is written
/// through, a device or a pipe is written to, `-` is standard output).
@Suite("tidings writes files safely", .serialized)
struct FileSafetyTests {
    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    /// The file type bits of what is at `path` itself (a link is not followed).
    static func kind(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    @Test("under umask 022 a new home is 0700 and its database, -wal, -shm and installation id 0600")
    func privateHome() throws {
        let parent = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: parent) }
        let home = parent.appendingPathComponent("home").path
        let result = try TidingsBinary.run(["--home", home, "-c", "task add Secret chore"], umask: "022")
        #expect(result.status == 0, "\(result.err)")
        #expect(Self.mode(home) == 0o700)
        for name in ["tidings.sqlite", "tidings.sqlite-wal", "tidings.sqlite-shm", "installation-id"] {
            let path = home + "/" + name
            #expect(FileManager.default.fileExists(atPath: path), "\(name)")
            #expect(Self.mode(path) == 0o600, "\(name): \(String(Self.mode(path) ?? 0, radix: 8))")
        }
    }

    @Test("eight commands started at once on a new home all succeed, and every task is kept")
    func startedAtOnce() throws {
        for _ in 0..<3 {
            let parent = try temporaryHome()
            defer { try? FileManager.default.removeItem(at: parent) }
            let home = parent.appendingPathComponent("home").path
            let started = try (1...8).map { n in
                try TidingsBinary.start(["--home", home, "-c", "task add Chore \(n)"])
            }
            for process in started { process.waitUntilExit() }
            #expect(started.map(\.terminationStatus) == Array(repeating: 0, count: 8))
            let list = try TidingsBinary.run(["--home", home, "--json", "-c", "task list"])
            #expect(list.status == 0, "\(list.err)")
            for n in 1...8 { #expect(list.out.contains("\"Chore \(n)\""), "Chore \(n)") }
        }
    }

    @Test("a home left readable by others is tightened when opened")
    func tightensExisting() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try TidingsBinary.run(["--home", home.path, "-c", "task add One"]).status == 0)
        let files = ["tidings.sqlite", "installation-id"].map { home.path + "/" + $0 } + [home.path + "/history"]
        try Data("help\n".utf8).write(to: home.appendingPathComponent("history"))
        for path in files { chmod(path, 0o644) }
        chmod(home.path, 0o755)
        #expect(try TidingsBinary.run(["--home", home.path, "-c", "task list"]).status == 0)
        #expect(Self.mode(home.path) == 0o700)
        for path in files { #expect(Self.mode(path) == 0o600, "\(path)") }
    }

    @Test("feed export keeps a replaced file's mode, writes through a link, and replaces no device or pipe")
    func exportTargets() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        func export(_ path: String) throws -> TidingsBinary.Result {
            try TidingsBinary.run(["--home", home.path, "-c", "feed export \(path)"], umask: "022")
        }
        // A private file stays private.
        let kept = home.appendingPathComponent("private.opml").path
        _ = FileManager.default.createFile(
            atPath: kept, contents: Data("old".utf8), attributes: [.posixPermissions: 0o600])
        #expect(try export(kept).status == 0)
        #expect(Self.mode(kept) == 0o600)
        #expect(try String(contentsOfFile: kept, encoding: .utf8).contains("<opml"))
        // A link (a dotfiles set-up's) stays a link; its target gets the export.
        let link = home.appendingPathComponent("link.opml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "private.opml")
        try "old".write(toFile: kept, atomically: false, encoding: .utf8)
        #expect(try export(link).status == 0)
        #expect(Self.kind(link) == S_IFLNK)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "private.opml")
        #expect(try String(contentsOfFile: kept, encoding: .utf8).contains("<opml"))
        // A character device (the null device, made here so no system file is at stake) stays one.
        // Its number is makedev(1, 3).
        let device = home.appendingPathComponent("null").path
        if mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 {
            let written = try export(device)
            #expect(written.status == 0, "\(written.err)")
            #expect(Self.kind(device) == S_IFCHR)
        }
        // A named pipe with a reader waiting gets the document, and stays a pipe.
        let fifo = home.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        // The reader is a process of its own: a task would wait for a thread of the test pool.
        let reader = ChildProcess()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let received = Pipe()
        reader.standardOutput = received
        try reader.run()
        #expect(try export(fifo).status == 0)
        let document = String(decoding: received.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(document.contains("<opml"))
        #expect(Self.kind(fifo) == S_IFIFO)
        // `-` is standard output, holding the document alone.
        let standard = try export("-")
        #expect(standard.status == 0 && standard.out.hasPrefix("<?xml") && standard.out.contains("</opml>"))
        #expect(!standard.out.contains("exported"))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("-").path))
    }

    @Test("a typed line holding a password is neither shown by history nor saved; the history file is 0600")
    func historyLeavesOutCredentials() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("tidings> "))
        terminal.type("task sync setup http://alice:SECRET@127.0.0.1:9/alice/chores/\r")
        #expect(terminal.waitFor("tidings> "))
        terminal.type("task list\r")
        #expect(terminal.waitFor("tidings> "))
        terminal.type("history\r")
        #expect(terminal.waitFor("history"))
        #expect(terminal.waitFor("tidings> "))
        #expect(
            terminal.lastOutput.contains("task list") && !terminal.lastOutput.contains("SECRET"),
            "\(terminal.lastOutput)")
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
        let saved = try String(contentsOf: home.appendingPathComponent("history"), encoding: .utf8)
        #expect(saved.contains("task list") && !saved.contains("SECRET"), "\(saved)")
        #expect(Self.mode(home.appendingPathComponent("history").path) == 0o600)
    }
}

/// A session whose database file is deleted or replaced under it says so instead of writing
/// into a file nobody will see again.
@Suite("tidings notices its database going away", .serialized)
struct DatabaseGoneTests {
    @Test(
        "after rm tidings.sqlite* in another shell, task add fails in words; after quitting nothing was lost silently")
    func deletedDuringSession() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("tidings> "))
        terminal.type("task add First\r")
        #expect(terminal.waitFor("added task #1"))
        #expect(terminal.waitFor("tidings> "))
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: home.path + "/tidings.sqlite" + suffix)
        }
        terminal.type("task add Second\r")
        #expect(terminal.waitFor("tidings> "))
        #expect(terminal.lastOutput.contains("was deleted while this session was open"), "\(terminal.lastOutput)")
        #expect(!terminal.lastOutput.contains("added task"))
        terminal.type("help task\r")  // help still works
        #expect(terminal.waitFor("task add"))
        terminal.type("quit\r")
        #expect(terminal.exitStatus() != nil)
    }

    @Test("a database replaced by another file is noticed too")
    func replacedDuringSession() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try TidingsBinary.run(["--home", home.path, "-c", "task add First"]).status == 0)
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("tidings> "))
        let database = home.appendingPathComponent("tidings.sqlite")
        let copy = home.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: database, to: copy)
        _ = rename(copy.path, database.path)
        terminal.type("task list\r")
        #expect(terminal.waitFor("tidings> "))
        #expect(terminal.lastOutput.contains("was replaced by another file"), "\(terminal.lastOutput)")
        terminal.type("quit\r")
        #expect(terminal.exitStatus() != nil)
    }
}
