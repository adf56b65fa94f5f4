import Accounts
import ArgumentParser
import CInterrupts
import Chores
import Config
import DefaultTransport
import Feed
import Foundation
import Logging
import Models
import Networking
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tidings`: the interactive front of the Tidings backend.
@main
struct TidingsCommand: AsyncParsableCommand {
    /// This build's version, printed by `--version` and compared with the config's minimum.
    static let version = "1.0.0"

    static let configuration = CommandConfiguration(
        commandName: "tidings",
        abstract: "Read news feeds, keep household chores and follow a remote configuration.",
        discussion: """
            With no -c and no SCRIPT, and standard input a terminal, Tidings starts an \
            interactive session (prompt "tidings> "). Otherwise it runs each -c command in \
            order, else each line of SCRIPT, else each line of standard input; blank lines and \
            lines starting with # are skipped.

            tidings parse <FILE|URL> [--json|--summary] parses one feed and prints it, \
            touching no database. The manual is tidings(1), and docs/reference.md in the \
            source repository.

            REPL commands (inside, "help <command>" shows each one's summary and an example):
            \(CommandCatalog.synopsis())

            Exit status: 0 success, 1 a command failed, 2 usage error, 3 update required, \
            130 interrupted.
            """,
        version: version)

    @Option(help: ArgumentHelp("The directory Tidings keeps its files in.", valueName: "dir"), completion: .directory)
    var home: String?

    @Option(
        help: ArgumentHelp("The database file (default: tidings.sqlite in the home).", valueName: "path"),
        completion: .file())
    var db: String?

    @Option(
        name: .customLong("config-url"),
        help: ArgumentHelp("Where to fetch the remote configuration.", valueName: "url"))
    var configURL: String?

    @Option(
        name: .customLong("app-version"),
        help: ArgumentHelp("The app version the minimum-version gate compares.", valueName: "x.y.z"))
    var appVersion: String?

    @Flag(help: "Print every command's result as one JSON document.")
    var json = false

    @Flag(name: .customLong("no-color"), help: "Never colour the output.")
    var noColor = false

    @Flag(name: .customLong("keep-going"), help: "Run the remaining commands after one fails.")
    var keepGoing = false

    /// A shell completes `-c` with the REPL's command words (`feed`, `items`, …): a static list,
    /// since one completion word cannot hold a whole command line in every shell.
    @Option(
        name: .customShort("c"), help: ArgumentHelp("Run a command and exit (repeatable).", valueName: "command"),
        completion: .list(CommandCatalog.words))
    var commands: [String] = []

    @Argument(help: ArgumentHelp("A file of commands, one per line.", valueName: "script"), completion: .file())
    var script: String?

    /// Dispatches `tidings parse …` to `ParseCommand`, a plain invocation to `Invocation.run()`
    /// directly, everything else to this command (`--generate-completion-script` included: its
    /// scripts describe this command's flags).
    static func main() async {
        // At most two malloc arenas: glibc gives each thread that allocates at once an arena of
        // its own (up to 8 per core), and the refresh's threads (transfers, parsing, the two
        // database writers) left each one's freed memory resident. A cold refresh of 2,500 feeds
        // peaked at 66 MB with the default, 57 MB with two, in the same time.
        _ = tidings_limit_malloc_arenas(2)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            Console.standard.out(version)
            return
        }
        if arguments.first == "parse" {
            let rest = Array(arguments.dropFirst())
            guard let form = ParseCommand.CommonForm(rest) else { return await run(ParseCommand.self, rest) }
            do {
                try await ParseCommand.parse(source: form.source, json: form.json, summary: form.summary)
            } catch {
                finish(ParseCommand.self, error)
            }
        } else if let invocation = Invocation(commonForm: arguments) {
            do {
                try await invocation.run()
            } catch {
                finish(Self.self, error)
            }
        } else {
            await run(Self.self, arguments)
        }
    }

    private static func run<Command: AsyncParsableCommand>(_ type: Command.Type, _ arguments: [String]) async {
        do {
            var command = try type.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            finish(type, error)
        }
    }

    /// Exits after `error`; a usage error exits with status 2 as the manual says (the argument
    /// parser's own convention is 64).
    private static func finish<Command: ParsableCommand>(_ type: Command.Type, _ error: any Error) -> Never {
        if let exit = error as? ExitCode { type.exit(withError: exit) }
        // The parser's messages quote what was typed: they pass the output boundary too.
        let code = type.exitCode(for: error)
        let message = type.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { Console.standard.out(message) }
            type.exit(withError: ExitCode.success)
        }
        if !message.isEmpty { Console.standard.err(message) }
        type.exit(withError: code == .validationFailure ? ExitCode(2) : code)
    }

    /// The flags and arguments as one value.
    var invocation: Invocation {
        Invocation(
            home: home, db: db, configURL: configURL, appVersion: appVersion, json: json, noColor: noColor,
            keepGoing: keepGoing, commands: commands, script: script)
    }

    func validate() throws {
        try invocation.validate()
    }

    func run() async throws {
        try await invocation.run()
    }
}

/// What one start of the program was asked to do, however its arguments were read.
struct Invocation: Equatable {
    var home: String?
    var db: String?
    var configURL: String?
    var appVersion: String?
    var json = false
    var noColor = false
    var keepGoing = false
    var commands: [String] = []
    var script: String?

    /// Refuses a combination the flags cannot express, with the reason.
    func validate() throws {
        if !commands.isEmpty, let script {
            throw ValidationError("-c and a SCRIPT (\(script)) cannot be used together; choose one")
        }
        if home?.isEmpty == true { throw ValidationError("--home needs a directory (it was given an empty one)") }
        if db?.isEmpty == true { throw ValidationError("--db needs a file path (it was given an empty one)") }
        if let appVersion, (try? SemanticVersion(appVersion)) == nil {
            throw ValidationError("--app-version \"\(appVersion)\" is not a version like 1.2.3")
        }
        if let configURL {
            let scheme = URL(string: configURL)?.scheme?.lowercased()
            guard let scheme, ["http", "https", "file"].contains(scheme) else {
                throw ValidationError("--config-url \"\(configURL)\" is not an http, https or file URL")
            }
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let logger = AppEnvironment.makeLogger(environment: environment)
        let location = HomeLocation(home: home, database: db, environment: environment)
        let app: AppEnvironment
        do {
            app = try await AppEnvironment.make(
                home: location, configURL: configURL, environment: environment, logger: logger)
        } catch {
            // With --json the failure is also the one JSON document on stdout, as for any
            // failed command.
            if json {
                let document = JSONValue.object([
                    "error": .object(["code": .string("startup_failed"), "message": .string(error.description)])
                ])
                Console.standard.out(document.description)
            }
            Console.standard.err("tidings: \(error.description)")
            throw ExitCode(1)
        }
        // The color setting matters, and is read, only when the output is a terminal.
        let colorSetting = isatty(STDOUT_FILENO) != 0 ? await app.settings.value("set.color") : nil
        let display = Display.current(noColor: noColor || colorSetting == "never", environment: environment)
        let version = (try? SemanticVersion(appVersion ?? TidingsCommand.version)) ?? SemanticVersion(major: 0)
        let drawsProgress = !json
        let progress: @Sendable (String?) -> Void = { text in
            if drawsProgress { Console.progressLine(text) }
        }
        let pages = !json
        let context = app.context(
            display: display, appVersion: version, progress: progress,
            page: { text, pager in pages && Pager.page(text, environment: environment, command: pager) })
        let interactive = commands.isEmpty && script == nil && isatty(STDIN_FILENO) != 0
        let interrupts = Interrupts(exitWhenIdle: !interactive)
        let notices = BackgroundNotices()
        let session = Session(
            options: .init(json: json, keepGoing: keepGoing), console: .standard, history: app.history,
            context: context, interrupts: interrupts, notices: notices,
            alerts: ChoreAlerts(tasks: app.tasks, calendar: app.calendar, now: app.now))

        if let banner = session.updateBanner() { Console.standard.err(banner) }

        let status: Int32
        if !commands.isEmpty {
            status = await session.runScript(commands)
        } else if let script {
            // Bytes that are not UTF-8 become U+FFFD, as on standard input and in -c.
            let text: String
            do {
                text = String(decoding: try LocalFile.read(URL(fileURLWithPath: script)), as: UTF8.self)
            } catch {
                Console.standard.err("tidings: cannot read the script \(script): \(error.reason)")
                throw ExitCode(2)
            }
            // Any line ending: "\r\n" is one Character in Swift, so splitting on "\n" would miss it.
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            status = await session.runScript(lines.map(String.init), source: script)
        } else if isatty(STDIN_FILENO) != 0 {
            // An interactive session refreshes the config in the background when the minimum
            // fetch interval has passed; the prompt never waits for it. Leaving cancels it and
            // waits for it to wind down: exiting while a request thread is still inside libcurl
            // runs OpenSSL's exit-time cleanup under that thread's feet.
            let config = app.config
            let fetches = app.configURLProblem == nil && config.configURL != nil
            let background = Task.detached(priority: .background) {
                if fetches { _ = await config.refresh(force: false) }
            }
            // Feeds refresh every refresh-interval minutes while the session is open (a setting).
            let (feeds, settings) = (app.feeds, app.settings)
            let autoRefresh = Task.detached(priority: .background) {
                await AutoRefresh.run(feeds: feeds, settings: settings, notices: notices)
            }
            // Shared chores sync at start and after task changes, in the background too.
            let choreSync = app.choreSync
            let chores = Task.detached(priority: .background) {
                await choreSync.syncInBackground(after: .seconds(2)) { notices.post($0) }
            }
            // Feed accounts sync at start and after the user marks their items, in the background.
            let accountService = app.accounts
            let accounts = Task.detached(priority: .background) {
                await accountService.syncInBackground(after: .seconds(2)) { notices.post($0, $1) }
            }
            let editor = LibEditLineEditor(
                history: app.history.entries,
                completer: app.completer())
            status = await session.runInteractive(editor: editor)
            background.cancel()
            chores.cancel()
            accounts.cancel()
            autoRefresh.cancel()
            await autoRefresh.value
            await background.value
            await chores.value
            await accounts.value
        } else {
            status = await session.runScript(AnySequence { AnyIterator { Swift.readLine(strippingNewline: true) } })
        }
        // A cancelled request may still be winding down inside libcurl (the config's fetch
        // outlives its abandoned callers): exiting under it crashes in OpenSSL's cleanup.
        if await !waitForNetworkIdle(timeout: .seconds(3)) {
            logger.debug("a network request was still running at exit")
        }
        // The next process starts with a small log (a failure only costs it time: logged).
        do {
            try await app.store.finishWrites()
        } catch {
            logger.debug("checkpoint at exit: \(error.localizedDescription)")
        }
        if status != 0 { throw ExitCode(status) }
    }
}

extension Invocation {
    /// The switches of `tidings` as `init(commonForm:)` reads them. A test holds them, with
    /// `valueOptions` and `-c`, to the argument parser's own declarations (its help dump), so
    /// that a flag added to `TidingsCommand` and not here fails it.
    ///
    /// Names and `switch` statements, not tables of key paths: the runtime builds the metadata
    /// of a key path existential on first use, by searching every protocol conformance of the
    /// binary, which cost every start about 0.3 ms.
    static let switches: Set<String> = ["--json", "--no-color", "--keep-going"]
    /// The options of `tidings` that take one value, as `init(commonForm:)` reads them.
    static let valueOptions: Set<String> = ["--home", "--db", "--config-url", "--app-version"]

    /// Turns on the switch named `name` (one of `switches`).
    private mutating func set(switch name: String) {
        switch name {
        case "--json": json = true
        case "--no-color": noColor = true
        default: keepGoing = true
        }
    }

    /// Sets the option named `name` (one of `valueOptions`).
    private mutating func set(option name: String, to value: String) {
        switch name {
        case "--home": home = value
        case "--db": db = value
        case "--config-url": configURL = value
        default: appVersion = value
        }
    }

    /// The invocation of `arguments`, read without the argument parser (whose reflection costs
    /// every start), when they use only what scripts and shell one-liners use: each flag at most
    /// once (`-c` any number of times), values that do not start with "-", at most one SCRIPT, and
    /// a valid combination. `nil` for anything else (help, `--flag=value`, a completion script, a
    /// mistake), which the argument parser reads, so that its messages and exit codes stay the only
    /// ones.
    init?(commonForm arguments: [String]) {
        self.init()
        var seen = Set<String>()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if Self.switches.contains(argument) {
                guard seen.insert(argument).inserted else { return nil }
                set(switch: argument)
            } else if argument == "-c" || Self.valueOptions.contains(argument) {
                guard argument == "-c" || seen.insert(argument).inserted, index < arguments.endIndex,
                    !arguments[index].hasPrefix("-")
                else { return nil }
                let value = arguments[index]
                index += 1
                if argument != "-c" {
                    set(option: argument, to: value)
                } else {
                    commands.append(value)
                }
            } else {
                // "help" is the argument parser's word, whatever follows.
                guard script == nil, !argument.isEmpty, !argument.hasPrefix("-"), argument != "help" else {
                    return nil
                }
                script = argument
            }
        }
        guard (try? validate()) != nil else { return nil }
    }
}
