import Chores
import Config
import Feed
import Foundation
import Models

/// Runs REPL lines: tokenises them, dispatches commands to the services and view models, and
/// prints their results as text or as one JSON document each (`--json`).
final class Session {
    /// How the session prints and when it stops.
    struct Options: Equatable {
        /// Print one JSON document per command.
        var json = false
        /// Keep going after a failed command in a script.
        var keepGoing = false
    }

    /// What running one line led to.
    enum LineResult: Equatable {
        /// Carry on with the next line.
        case proceed
        /// The user asked to leave.
        case quit
        /// The command failed with this exit status.
        case failed(Int32)
    }

    private let options: Options
    private let console: Console
    private let history: HistoryStore
    private let context: CommandContext
    private let interrupts: Interrupts?
    private let notices: BackgroundNotices?
    private let alerts: ChoreAlerts?

    init(
        options: Options, console: Console, history: HistoryStore, context: CommandContext,
        interrupts: Interrupts? = nil, notices: BackgroundNotices? = nil, alerts: ChoreAlerts? = nil
    ) {
        self.alerts = alerts
        self.options = options
        self.console = console
        self.history = history
        self.context = context
        self.interrupts = interrupts
        self.notices = notices
    }

    /// Runs every line of a script (`-c` commands, a file, or piped stdin) and returns the
    /// exit status: 0, or the status of the first failure. With `--keep-going` every line runs
    /// and the status is 1 if any command failed (SPEC.md), else 3 if any was refused by the
    /// version gate. With a `source` (a SCRIPT file's name), each error line starts with
    /// `FILE:LINE:`, as sqlite3's do.
    func runScript(_ lines: some Sequence<String>, source: String? = nil) async -> Int32 {
        var failed = false
        var refused = false
        var status: Int32 { failed ? 1 : refused ? 3 : 0 }
        for (index, line) in lines.enumerated() {
            switch await execute(line, location: source.map { "\($0):\(index + 1)" }) {
            case .proceed: continue
            case .quit: return status
            case .failed(let code):
                if !options.keepGoing || code == 130 { return code }
                if code == 3 { refused = true } else { failed = true }
            }
        }
        return status
    }

    /// Reads lines from the editor until `quit` or end of input; a failed command does not end
    /// an interactive session. Returns 0.
    ///
    /// When the configuration comes to require a newer version during the session (the
    /// background refresh at start), the banner is shown before the next prompt, once; so is
    /// what background work posted to `notices` (a chore sync that received or failed).
    func runInteractive(editor: some LineReading) async -> Int32 {
        var banner = updateBanner()  // the caller has shown it at start
        // Chores are told about only while they can be acted on (the version gate allows tasks).
        if banner == nil, let line = await alerts?.start() { console.err(line) }
        while true {
            await editor.prepare()
            let current = updateBanner()
            if let current, current != banner { console.err(current) }
            for notice in notices?.take() ?? [] { console.err(notice) }
            if current == nil { for line in await alerts?.look() ?? [] { console.err(line) } }
            banner = current
            guard let line = editor.readLine(prompt: "tidings> ") else { break }
            // Enter on an empty line reads on: the next article after one, the next page after a
            // page (mail(1)'s Enter). Neither is kept in the history.
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                switch context.reading.continuation {
                case .nextArticle: _ = await execute("next")
                case .nextPage: _ = await execute("more")
                case .none: break
                }
                continue
            }
            if history.add(line) { editor.remember(line) }
            if await execute(line) == .quit { break }
        }
        return 0
    }

    /// The banner shown when the configuration requires a newer version; `nil` otherwise.
    func updateBanner() -> String? {
        context.updateBanner()
    }

    /// Runs one line. Blank lines and `#` comments do nothing. An error is reported after
    /// `location` (`setup.tidings:5: error: ...`) when there is one.
    func execute(_ line: String, location: String? = nil) async -> LineResult {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return .proceed }
        let words: [String]
        do {
            words = try CommandLineTokenizer.words(trimmed)
        } catch {
            report(.usage(error.description), at: location)
            return .failed(1)
        }
        guard !words.isEmpty else { return .proceed }
        let runner = CommandRunner(context: context, historyEntries: history.entries)
        let work = Task { try await runner.run(words) }
        interrupts?.running(work)
        defer { interrupts?.idle() }
        do {
            let output = try await work.value
            if let notice = output.notice { console.err(notice) }
            if options.json {
                console.out(output.renderJSON().description)
            } else {
                let text = output.renderText()
                if !text.isEmpty { console.out(text) }
            }
            if let failure = output.failure {
                console.err((location.map { "\($0): " } ?? "") + "error: \(failure.message)")
                return .failed(failure.exitStatus)
            }
            return output.endsSession ? .quit : .proceed
        } catch {
            let failure = Self.commandError(error, cancelled: work.isCancelled)
            report(failure, at: location)
            return .failed(failure.exitStatus)
        }
    }

    /// Any error as the user sees it.
    static func commandError(_ error: any Error, cancelled: Bool) -> CommandError {
        // A command that says more about its interruption (where a partial download is) says it.
        if let error = error as? CommandError, error.exitStatus == 130 { return error }
        if cancelled || error is CancellationError {
            return CommandError(code: "interrupted", message: "interrupted", exitStatus: 130)
        }
        switch error {
        case let error as CommandError: return error
        case let error as FeedError: return CommandError(error)
        case let error as TaskError: return CommandError(code: error.code, message: error.description)
        case let error as any LocalizedError:
            return CommandError(code: "failed", message: error.errorDescription ?? "\(error)")
        default: return CommandError(code: "failed", message: String(describing: error))
        }
    }

    private func report(_ error: CommandError, at location: String?) {
        if options.json {
            console.out(
                JSONValue.object(["error": .object(["code": .string(error.code), "message": .string(error.message)])])
                    .description)
        }
        console.err((location.map { "\($0): " } ?? "") + "error: \(error.message)")
    }
}
