import Foundation
import Testing

@testable import REPL

/// A fresh home directory for one test.
func temporaryHome() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("tidings executable", .serialized)
struct ExecutableTests {
    @Test("--version prints this build's version and exits 0")
    func version() throws {
        let result = try TidingsBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.out == TidingsCommand.version + "\n")
    }

    @Test("--help lists the flags and the REPL commands")
    func help() throws {
        let result = try TidingsBinary.run(["--help"])
        #expect(result.status == 0)
        for word in [
            "--home", "--db", "--config-url", "--app-version", "--json", "--no-color", "--keep-going", "-c",
            "help [command]", "quit",
        ] {
            #expect(result.out.contains(word), "missing \(word)")
        }
        // Every REPL command, each synopsis on lines the argument parser leaves alone.
        for command in CommandCatalog.all where !command.isGroup {
            #expect(result.out.contains(command.name), "missing \(command.name)")
        }
        #expect(result.out.split(separator: "\n").allSatisfy { $0.count <= 80 || $0.hasPrefix("USAGE:") })
    }

    @Test("a SCRIPT file with CRLF line endings runs line by line")
    func crlfScript() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script = home.appendingPathComponent("script.txt")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("help quit\r\n# a comment\r\n\r\ntask add Dust\r\n".utf8).write(to: script)
        let result = try TidingsBinary.run(["--home", home.path, script.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("usage: quit") && result.out.contains(#"added task #1 "Dust""#))
    }

    @Test("an unknown flag is a usage error with status 2; so is an empty --home or --db")
    func unknownFlag() throws {
        let result = try TidingsBinary.run(["--colour"])
        #expect(result.status == 2)
        #expect(result.err.contains("--colour"))
        for flag in ["--home", "--db"] {
            let empty = try TidingsBinary.run([flag, "", "-c", "help"])
            #expect(empty.status == 2)
            #expect(empty.err.contains("\(flag) needs"))
        }
    }

    @Test("a SCRIPT file with bytes that are not UTF-8 runs, those bytes read as U+FFFD")
    func scriptWithInvalidUTF8() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script = home.appendingPathComponent("latin1.tidings")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data([0x74, 0x61, 0x73, 0x6B, 0x20, 0x61, 0x64, 0x64, 0x20, 0x43, 0x61, 0x66, 0xE9, 0x0A]).write(to: script)
        let result = try TidingsBinary.run(["--home", home.path, script.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "added task #1 \"Caf\u{FFFD}\"\n")
    }

    @Test("-c commands run in order; the home gets its database; status 0")
    func commands() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try TidingsBinary.run(["--home", home.path, "-c", "help quit", "-c", "help history"])
        #expect(result.status == 0)
        #expect(result.out.components(separatedBy: "usage:").count == 3)
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("tidings.sqlite").path))
    }

    @Test("$TIDINGS_HOME is used when --home is not given")
    func environmentHome() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try TidingsBinary.run(["-c", "help"], environment: ["TIDINGS_HOME": home.path])
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("tidings.sqlite").path))
    }

    @Test("a failing command stops the script with status 1; --keep-going runs the rest")
    func failureStatus() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let stopped = try TidingsBinary.run(["--home", home.path, "-c", "hlep", "-c", "help quit"])
        #expect(stopped.status == 1)
        #expect(stopped.out.isEmpty)
        #expect(stopped.err.contains(#"did you mean "help"?"#))
        let kept = try TidingsBinary.run(["--home", home.path, "--keep-going", "-c", "hlep", "-c", "help quit"])
        #expect(kept.status == 1)
        #expect(kept.out.contains("usage: quit"))
    }

    @Test("piped standard input is read line by line, without a prompt")
    func pipedInput() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try TidingsBinary.run(["--home", home.path], input: "# comment\n\nhelp quit\n")
        #expect(result.status == 0)
        #expect(!result.out.contains("tidings>"))
        #expect(result.out.hasPrefix("usage: quit"))
        // Script mode never writes the interactive history.
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("history").path))
    }

    @Test("a SCRIPT file runs each line; a missing one is a usage error")
    func scriptFile() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script = home.appendingPathComponent("commands.tidings")
        try Data("help history\nnonsense\n".utf8).write(to: script)
        let result = try TidingsBinary.run(["--home", home.path, script.path])
        #expect(result.status == 1)
        #expect(result.out.hasPrefix("usage: history"))
        #expect(try TidingsBinary.run(["--home", home.path, home.appendingPathComponent("none").path]).status == 2)
    }

    @Test("a failing line of a SCRIPT is reported as FILE:LINE: error: ..., as sqlite3 does")
    func scriptErrorLocation() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script = home.appendingPathComponent("setup.tidings")
        try Data("# set up\nhelp history\n\nitem show 99\nfeed nope\n".utf8).write(to: script)
        let result = try TidingsBinary.run(["--home", home.path, "--keep-going", script.path])
        #expect(result.status == 1)
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(script.path):4: error: no item #99", "\(result.err)")
        #expect(lines.last?.hasPrefix("\(script.path):5: error: ") == true, "\(result.err)")
        // -c lines and piped input have no file to name.
        let inline = try TidingsBinary.run(["--home", home.path, "-c", "item show 99"])
        #expect(inline.err == "error: no item #99\n")
    }

    @Test("-c together with a SCRIPT is a usage error (2), not a SCRIPT silently ignored")
    func commandAndScript() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script = home.appendingPathComponent("s.tidings")
        try Data("help\n".utf8).write(to: script)
        let result = try TidingsBinary.run(["--home", home.path, "-c", "help quit", script.path])
        #expect(result.status == 2)
        #expect(result.err.contains("-c and a SCRIPT"), "\(result.err)")
    }

    @Test("TIDINGS_HOME='~/x' is $HOME/x, as --home '~/x' is")
    func tildeInEnvironmentHome() throws {
        let user = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: user) }
        for (arguments, environment) in [
            (["-c", "help"], ["HOME": user.path, "TIDINGS_HOME": "~/x"]),
            (["--home", "~/y", "-c", "help"], ["HOME": user.path]),
        ] {
            #expect(try TidingsBinary.run(arguments, environment: environment).status == 0)
        }
        #expect(FileManager.default.fileExists(atPath: user.appendingPathComponent("x/tidings.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: user.appendingPathComponent("y/tidings.sqlite").path))
    }

    @Test("messages count in the right number; an empty list with no feeds says how to add one; help wraps by words")
    func messages() async throws {
        try await withSiteAndHome { site, home in
            let empty = try TidingsBinary.run(["--home", home.path, "-c", "items"])
            #expect(empty.out == "no items yet: subscribe with \"feed add <url-or-path>\"\n")
            try """
            <?xml version="1.0"?><rss version="2.0"><channel><title>One</title>
            <item><title>Only</title><guid>1</guid></item></channel></rss>
            """.write(to: site.appendingPathComponent("one.xml"), atomically: true, encoding: .utf8)
            let opml = site.appendingPathComponent("out.opml").path
            let result = try TidingsBinary.run([
                "--home", home.path, "-c", "feed add \(site.path)/one.xml", "-c", "feed export \(opml)",
                "-c", "item mark --feed 1 --all read", "-c", "feed remove 1", "-c", "feed import \(opml)",
            ])
            #expect(
                result.out.split(separator: "\n").map(String.init) == [
                    #"added feed #1 "One": 1 item (1 new)"#, "exported 1 feed to \(opml)",
                    "marked 1 item of feed #1 read",
                    #"removed feed #1 "One" and its 1 item"#,
                    // An OPML list's local files are not taken: only web addresses.
                    "imported 0 feeds, 0 already present, 1 skipped (not http or https: file://\(site.path)/one.xml)",
                ], "\(result.err)")
            let help = try TidingsBinary.run(
                ["--home", home.path, "-c", "help task list"], environment: ["COLUMNS": "40"])
            let lines = help.out.split(separator: "\n")
            #expect(lines.count > 4 && lines.dropFirst().allSatisfy { $0.count <= 40 }, "\(help.out)")
            #expect(help.out.contains("--upcoming") && help.out.contains("next 7 days"))
        }
    }

    @Test("with no config URL set, config show says there is no remote source without an error; refresh says why")
    func noConfigURL() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["TIDINGS_CONFIG_URL": ""]
        let show = try TidingsBinary.run(["--home", home.path, "-c", "config show"], environment: environment)
        #expect(show.status == 0 && show.err.isEmpty, "\(show.err)")
        #expect(show.out.contains("config url:      none (the bundled values are in force)"), "\(show.out)")
        #expect(show.out.contains("last refresh:    never") && !show.out.contains("404"), "\(show.out)")
        let json = try TidingsBinary.run(
            ["--home", home.path, "--json", "-c", "config show"], environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect(object?["config_url"] is NSNull && object?["last_refresh"] is NSNull, "\(json.out)")
        let refresh = try TidingsBinary.run(["--home", home.path, "-c", "config refresh"], environment: environment)
        #expect(refresh.status == 1)
        #expect(refresh.err.contains("no remote configuration source is set"), "\(refresh.err)")
        let again = try TidingsBinary.run(["--home", home.path, "-c", "config show"], environment: environment)
        #expect(again.out.contains("last refresh:    never"), "a refresh with nothing to fetch is not an attempt")
    }

    @Test("a minimum version with numbers past 64 bits is a version: the gate holds (exit 3), it does not fail open")
    func hugeMinimumVersion() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        for version in ["99999999999999999999.0.0", "1.99999999999999999999.0"] {
            let served = home.appendingPathComponent("config.json")
            try Data(#"{"minVersion": "\#(version)"}"#.utf8).write(to: served)
            let run = try TidingsBinary.run([
                "--home", home.path, "--config-url", served.absoluteString, "--app-version", "1.5.0",
                "-c", "config refresh", "-c", "task list",
            ])
            #expect(run.status == 3, "\(version): \(run.out) \(run.err)")
            let show = try TidingsBinary.run([
                "--home", home.path, "--config-url", served.absoluteString, "--app-version", "1.5.0", "-c",
                "config show",
            ])
            #expect(
                show.out.contains("minimum version: \(version)") && !show.out.contains("not a version"), "\(show.out)")
        }
    }

    @Test("a malformed TIDINGS_CONFIG_URL is an error only where a fetch would use it (config refresh)")
    func badConfigURLFromTheEnvironment() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["TIDINGS_CONFIG_URL": "garbage"]
        let list = try TidingsBinary.run(["--home", home.path, "-c", "task list"], environment: environment)
        #expect(list.status == 0 && list.out == "no tasks\n", "\(list.err)")
        let refresh = try TidingsBinary.run(["--home", home.path, "-c", "config refresh"], environment: environment)
        #expect(refresh.status == 1)
        #expect(refresh.err.contains("\"garbage\" from TIDINGS_CONFIG_URL"), "\(refresh.err)")
    }

    @Test("--json prints one JSON document per command, errors as {error:{code,message}}")
    func json() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try TidingsBinary.run(["--home", home.path, "--json", "--keep-going", "-c", "help", "-c", "nope"])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)
        let error = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: [String: String]]
        #expect(error?["error"]?["code"] == "unknown_command")
        #expect(result.err.hasPrefix("error: "))
    }

    @Test("a corrupt database file is reported clearly and left untouched")
    func corruptDatabase() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let database = home.appendingPathComponent("tidings.sqlite")
        let garbage = Data(String(repeating: "not a database\n", count: 500).utf8)
        try garbage.write(to: database)
        let result = try TidingsBinary.run(["--home", home.path, "-c", "help"])
        #expect(result.status == 1)
        #expect(result.err.contains("is not a Tidings database"))
        #expect(result.out.isEmpty)
        // With --json the reason is also the one JSON document on standard output.
        let json = try TidingsBinary.run(["--home", home.path, "--json", "-c", "task list"])
        #expect(json.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: [String: String]]
        #expect(document?["error"]?["code"] == "startup_failed")
        #expect(document?["error"]?["message"]?.contains("is not a Tidings database") == true)
        #expect(json.out.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: database) == garbage)
    }
}

@Suite("tidings in a terminal", .serialized)
struct InteractiveTests {
    @Test("shows the prompt, runs commands, completes with Tab, and quits with status 0")
    func promptAndQuit() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("tidings> "))
        terminal.type("hel\t")
        // libedit redraws the completed word from the cursor: "p " after "hel".
        #expect(terminal.waitFor("p "), "screen: \(terminal.pending.debugDescription)")
        terminal.type("quit\r")
        #expect(terminal.waitFor("usage: quit"))
        #expect(terminal.waitFor("tidings> "))
        terminal.type("hlep\r")
        #expect(terminal.waitFor("did you mean"))
        #expect(terminal.waitFor("tidings> "))
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
        let history = try String(contentsOf: home.appendingPathComponent("history"), encoding: .utf8)
        #expect(history == "help quit\nhlep\nquit\n")
    }

    @Test("Ctrl-D at an empty prompt quits with status 0, ending the prompt's line")
    func controlD() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("tidings> "))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(terminal.pending.unicodeScalars.last == "\n", "\(terminal.transcript.debugDescription)")
    }

    @Test("history from an earlier session is recalled with the Up arrow")
    func historyRecall() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try Data("help history\n".utf8).write(to: home.appendingPathComponent("history"))
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("tidings> "))
        terminal.type("\u{1b}[A\r")
        #expect(terminal.waitFor("usage: history"))
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
    }
}

@Suite("tidings flags", .serialized)
struct FlagTests {
    @Test("a malformed --app-version or --config-url is a usage error with status 2")
    func malformedFlags() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let version = try TidingsBinary.run(["--home", home.path, "--app-version", "one.two", "-c", "help"])
        #expect(version.status == 2)
        #expect(version.err.contains(#"--app-version "one.two""#))
        let url = try TidingsBinary.run(["--home", home.path, "--config-url", "ftp://x", "-c", "help"])
        #expect(url.status == 2)
        #expect(url.err.contains("--config-url"))
    }

    @Test("an app version below the bundled minimum shows the update banner; at or above it, none")
    func updateBanner() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let old = try TidingsBinary.run(["--home", home.path, "--app-version", "0.9", "-c", "help"])
        #expect(old.status == 0)
        #expect(old.err.contains("Update required"))
        let current = try TidingsBinary.run(["--home", home.path, "--app-version", "1.0", "-c", "help"])
        #expect(!current.err.contains("Update required"))
    }
}
