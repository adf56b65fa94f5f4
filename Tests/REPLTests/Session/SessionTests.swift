import Config
import Foundation
import Synchronization
import Testing

@testable import REPL

/// Collects what a session prints.
final class Transcript: Sendable {
    private let lines = Mutex<(out: [String], err: [String])>(([], []))

    var console: Console {
        Console(
            out: { line in self.lines.withLock { $0.out.append(line) } },
            err: { line in self.lines.withLock { $0.err.append(line) } })
    }

    var out: [String] { lines.withLock { $0.out } }
    var err: [String] { lines.withLock { $0.err } }
}

/// A line reader that replays scripted lines, as a person at the prompt would type them.
final class ScriptedEditor: LineReading {
    private var lines: [String]
    private(set) var prompts: [String] = []
    private(set) var remembered: [String] = []
    /// Runs before each prompt (with the prompt's number, from 1), as background work would.
    private let beforePrompt: (Int) async -> Void
    private var prepared = 0

    init(_ lines: [String], beforePrompt: @escaping (Int) async -> Void = { _ in }) {
        self.lines = lines
        self.beforePrompt = beforePrompt
    }

    func prepare() async {
        prepared += 1
        await beforePrompt(prepared)
    }

    func readLine(prompt: String) -> String? {
        prompts.append(prompt)
        return lines.isEmpty ? nil : lines.removeFirst()
    }

    func remember(_ line: String) { remembered.append(line) }
}

@Suite("Session")
struct SessionTests {
    func session(json: Bool = false, keepGoing: Bool = false, history: HistoryStore = HistoryStore(fileURL: nil))
        async throws -> (Session, Transcript, TestApp)
    {
        let app = try await TestApp()
        let (session, transcript) = app.session(json: json, keepGoing: keepGoing, history: history)
        return (session, transcript, app)
    }

    @Test("blank lines and comments are skipped")
    func skipsBlankAndComments() async throws {
        let (session, transcript, app) = try await session()
        defer { withExtendedLifetime(app) {} }
        #expect(await session.runScript(["", "   ", "# a comment", "  # indented"]) == 0)
        #expect(transcript.out.isEmpty && transcript.err.isEmpty)
    }

    @Test("the first failing command stops a script with status 1")
    func stopsAtFirstFailure() async throws {
        let (session, transcript, app) = try await session()
        defer { withExtendedLifetime(app) {} }
        #expect(await session.runScript(["nonsense", "help"]) == 1)
        #expect(transcript.out.isEmpty)
        #expect(transcript.err == [#"error: unknown command "nonsense"; type "help" for the list"#])
    }

    @Test("--keep-going runs the rest and still ends with status 1")
    func keepGoing() async throws {
        let (session, transcript, app) = try await session(keepGoing: true)
        defer { withExtendedLifetime(app) {} }
        #expect(await session.runScript(["nonsense", "help quit"]) == 1)
        #expect(transcript.out.first?.hasPrefix("usage: quit | exit | Ctrl-D\n") == true)
    }

    @Test("--keep-going ends with 1 if any command failed (SPEC), else 3 if one was refused by the gate, in any order")
    func keepGoingStatusIsOrderFree() async throws {
        let app = try await TestApp(appVersion: "0.1.0")
        for (lines, status) in [
            (["feed list", "nonsense"], 1), (["nonsense", "feed list"], 1), (["feed list", "help"], 3),
            (["help", "task list", "feed list"], 3), (["nonsense", "help"], 1),
        ] as [([String], Int32)] {
            let (session, _) = app.session(keepGoing: true)
            #expect(await session.runScript(lines) == status, "\(lines)")
        }
    }

    @Test("quit ends a script early with the status so far")
    func quitEndsScript() async throws {
        let (session, transcript, app) = try await session()
        defer { withExtendedLifetime(app) {} }
        #expect(await session.runScript(["quit", "nonsense"]) == 0)
        #expect(transcript.err.isEmpty)
    }

    @Test("a typo suggests the nearest command")
    func didYouMean() async throws {
        let (session, transcript, app) = try await session()
        defer { withExtendedLifetime(app) {} }
        #expect(await session.execute("hlep") == .failed(1))
        #expect(transcript.err == [#"error: unknown command "hlep" (did you mean "help"?); type "help" for the list"#])
    }

    @Test("help on a mistyped sub-command suggests the nearest command name")
    func helpDidYouMean() async throws {
        let (session, transcript, app) = try await session()
        defer { withExtendedLifetime(app) {} }
        #expect(await session.execute("help task ad") == .failed(1))
        #expect(await session.execute("help tsk list") == .failed(1))
        #expect(
            transcript.err == [
                #"error: unknown command "task ad" (did you mean "task add"?); type "help" for the list"#,
                #"error: unknown command "tsk list" (did you mean "task list"?); type "help" for the list"#,
            ])
    }

    @Test("an unbalanced quote is a usage error, not a crash")
    func unbalancedQuote() async throws {
        let (session, transcript, app) = try await session()
        defer { withExtendedLifetime(app) {} }
        #expect(await session.execute(#"help "quit"#) == .failed(1))
        #expect(transcript.err.first?.contains("unbalanced \" quote") == true)
    }

    @Test("help lists every command and help <command> shows usage and an example")
    func help() async throws {
        let (session, transcript, app) = try await session()
        defer { withExtendedLifetime(app) {} }
        #expect(await session.execute("help") == .proceed)
        for command in CommandCatalog.all where !command.isGroup { #expect(transcript.out[0].contains(command.usage)) }
        #expect(await session.execute("HELP history") == .proceed)
        #expect(
            transcript.out[1]
                == "usage: history\n\(CommandCatalog.command(named: "history")!.summary)\nexample: history")
        #expect(await session.execute("help nope") == .failed(1))
        #expect(await session.execute("help quit extra") == .failed(1))
    }

    @Test("--json prints exactly one JSON document per command, errors included")
    func jsonOutput() async throws {
        let (session, transcript, app) = try await session(json: true)
        defer { withExtendedLifetime(app) {} }
        _ = await session.execute("help")
        _ = await session.execute("hlep")
        _ = await session.execute("quit")
        #expect(transcript.out.count == 3)
        for line in transcript.out {
            #expect(!line.contains("\n"))
            _ = try JSONSerialization.jsonObject(with: Data(line.utf8))
        }
        let error = try #require(try JSONSerialization.jsonObject(with: Data(transcript.out[1].utf8)) as? [String: Any])
        let body = try #require(error["error"] as? [String: Any])
        #expect(body["code"] as? String == "unknown_command")
        #expect((body["message"] as? String)?.contains("did you mean") == true)
        #expect(transcript.err.count == 1)
        #expect(transcript.out[2] == #"{"ok":true}"#)
    }

    @Test("an interactive session prompts, remembers lines, survives failures and stops at quit")
    func interactive() async throws {
        let history = HistoryStore(fileURL: nil)
        let (session, transcript, app) = try await session(history: history)
        defer { withExtendedLifetime(app) {} }
        let editor = ScriptedEditor(["help", "", "oops", "help", "quit", "help"])
        #expect(await session.runInteractive(editor: editor) == 0)
        #expect(editor.prompts == Array(repeating: "tidings> ", count: 5))
        #expect(editor.remembered == ["help", "oops", "help", "quit"])
        #expect(history.entries == ["help", "oops", "help", "quit"])
        #expect(transcript.err.count == 1)
    }

    @Test("a minVersion raised in the background during a session shows the banner before the next prompt, once")
    func bannerMidSession() async throws {
        let app = try await TestApp()
        let (session, transcript) = app.session()
        app.server.serve("https://config.test/config.json", #"{"minVersion":"2.0"}"#)
        let editor = ScriptedEditor(["help quit", "help quit", "help quit"]) { prompt in
            if prompt == 2 { _ = await app.environment.config.refresh(force: true) }
        }
        #expect(session.updateBanner() == nil)
        #expect(await session.runInteractive(editor: editor) == 0)
        let banners = transcript.err.filter { $0.contains("2.0") }
        #expect(banners.count == 1, "\(transcript.err)")
        #expect(transcript.out.count == 3)
    }

    @Test("end of input (Ctrl-D) ends an interactive session with status 0")
    func endOfInput() async throws {
        let (session, _, app) = try await session()
        defer { withExtendedLifetime(app) {} }
        #expect(await session.runInteractive(editor: ScriptedEditor([])) == 0)
    }

    @Test("history prints the stored lines, numbered")
    func historyCommand() async throws {
        let history = HistoryStore(fileURL: nil)
        history.add("help")
        history.add("help quit")
        let (session, transcript, app) = try await session(history: history)
        defer { withExtendedLifetime(app) {} }
        #expect(await session.execute("history") == .proceed)
        #expect(transcript.out == ["1  help\n2  help quit"])
    }
}
