import Foundation
import Models

/// Runs REPL lines: tokenises them, dispatches commands and prints their results as text or
/// as one JSON document each (`--json`).
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

    init(options: Options, console: Console, history: HistoryStore) {
        self.options = options
        self.console = console
        self.history = history
    }

    /// Runs every line of a script (`-c` commands, a file, or piped stdin) and returns the
    /// exit status: 0, or the status of the first failure (the last one with `--keep-going`).
    func runScript(_ lines: some Sequence<String>) -> Int32 {
        var status: Int32 = 0
        for line in lines {
            switch execute(line) {
            case .proceed: continue
            case .quit: return status
            case .failed(let code):
                status = code
                if !options.keepGoing { return status }
            }
        }
        return status
    }

    /// Reads lines from the editor until `quit` or end of input; a failed command does not end
    /// an interactive session. Returns 0.
    func runInteractive(editor: some LineReading) -> Int32 {
        while let line = editor.readLine(prompt: "tidings> ") {
            if history.add(line) { editor.remember(line) }
            if execute(line) == .quit { break }
        }
        return 0
    }

    /// Runs one line. Blank lines and `#` comments do nothing.
    func execute(_ line: String) -> LineResult {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return .proceed }
        do {
            let words: [String]
            do {
                words = try CommandLineTokenizer.words(trimmed)
            } catch {
                throw CommandError.usage(error.description)
            }
            guard let first = words.first else { return .proceed }
            return try run(first.lowercased(), Array(words.dropFirst()))
        } catch let error as CommandError {
            report(error)
            return .failed(error.exitStatus)
        } catch {
            report(CommandError(code: "failed", message: String(describing: error)))
            return .failed(1)
        }
    }

    private func run(_ word: String, _ arguments: [String]) throws -> LineResult {
        switch word {
        case "help":
            try help(arguments)
        case "history":
            try expectNoArguments(arguments, command: "history")
            if options.json {
                emit(json: .object(["history": .array(history.entries.map(JSONValue.string))]))
            } else {
                let width = String(history.entries.count).count
                for (index, entry) in history.entries.enumerated() {
                    console.out(
                        String(repeating: " ", count: width - String(index + 1).count) + "\(index + 1)  \(entry)")
                }
            }
        case "quit", "exit":
            try expectNoArguments(arguments, command: word)
            if options.json { emit(json: .object(["ok": .bool(true)])) }
            return .quit
        default:
            throw CommandError.unknownCommand(word)
        }
        return .proceed
    }

    private func help(_ arguments: [String]) throws {
        guard let topic = arguments.first else {
            if options.json {
                let commands = CommandCatalog.all.map { command -> JSONValue in
                    .object([
                        "name": .string(command.name), "usage": .string(command.usage),
                        "summary": .string(command.summary),
                    ])
                }
                emit(json: .object(["commands": .array(commands)]))
            } else {
                console.out(
                    "Commands:\n" + CommandCatalog.overview
                        + "\n\nType \"help <command>\" for its usage and an example.")
            }
            return
        }
        guard arguments.count == 1 else { throw CommandError.usage("help takes one command name, like \"help quit\"") }
        guard let command = CommandCatalog.command(named: topic) else { throw CommandError.unknownCommand(topic) }
        if options.json {
            emit(
                json: .object([
                    "name": .string(command.name), "usage": .string(command.usage),
                    "summary": .string(command.summary), "example": .string(command.example),
                ]))
        } else {
            console.out("usage: \(command.usage)\n\(command.summary)\nexample: \(command.example)")
        }
    }

    private func expectNoArguments(_ arguments: [String], command: String) throws {
        guard arguments.isEmpty else {
            throw CommandError.usage("\(command) takes no arguments (got \"\(arguments.joined(separator: " "))\")")
        }
    }

    private func emit(json value: JSONValue) {
        console.out(value.description)
    }

    private func report(_ error: CommandError) {
        if options.json {
            emit(json: .object(["error": .object(["code": .string(error.code), "message": .string(error.message)])]))
        }
        console.err("error: \(error.message)")
    }
}
