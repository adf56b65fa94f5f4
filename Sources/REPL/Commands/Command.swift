import Foundation

/// One REPL command, declared once: its words, synopsis, summary, example, arguments and options,
/// what it needs before it may run, and what it does. Dispatch, the checks of its words, `help`,
/// completion, the version gate and the manual's check all read this one value, in the way
/// swift-argument-parser declares a command once.
///
/// A group (`feed`) has no action: it names the family, and its sub-commands are the commands
/// whose names start with its name.
struct Command: Sendable {
    /// A positional argument.
    struct Argument: Sendable {
        /// How many words it takes.
        enum Count: Sendable {
            /// Exactly one word.
            case one
            /// One word, or none.
            case optional
            /// Any number of words, none included.
            case many
            /// Every remaining word, joined by spaces; not blank (`task add <name>`).
            case rest
            /// Every remaining word, none included (`set [key] [value]`).
            case optionalRest
        }

        let name: String
        let kind: ValueKind
        var count: Count = .one
    }

    /// An `--option`.
    struct Option: Sendable {
        let name: String
        let kind: ArgumentList.Kind
        /// What its value is, for completion.
        var value: ValueKind = .text

        static func flag(_ name: String) -> Option { Option(name: name, kind: .flag) }
        static func value(_ name: String, _ value: ValueKind = .text) -> Option {
            Option(name: name, kind: .value, value: value)
        }
        static func countAndUnit(_ name: String) -> Option { Option(name: name, kind: .countAndUnit) }
        static func optionalValue(_ name: String, _ value: ValueKind = .text) -> Option {
            Option(name: name, kind: .optionalValue, value: value)
        }
    }

    /// What a word names: completion offers the matching ids, paths or names.
    enum ValueKind: Sendable, Equatable {
        case text
        case feedID
        case itemID
        case taskID
        /// A local file (Tab completes a path).
        case path
        /// A command name (`help feed add`).
        case commandName
        /// A key of the configuration (`config get`).
        case configKey
        /// A feed's tag (`feed tag`, `--tag`).
        case tag
        /// A saved view's name (`--view`, `view remove`).
        case view
        /// A setting's key (`set`, `unset`).
        case setting
        /// A list of chores (`--list`).
        case taskList
        /// One of a few words (`--priority high|medium|low`).
        case choice([String])

        /// How an error names it: `a feed id must be an id like 3`.
        var described: String {
            switch self {
            case .feedID: "a feed id"
            case .itemID: "an item id"
            case .taskID: "a task id"
            case .text, .path, .commandName, .configKey, .tag, .view, .setting, .taskList, .choice: "id"
            }
        }
    }

    /// What a command needs before it runs.
    enum Requirement: Sendable, Comparable {
        /// Nothing: `help`, `history` and `quit` work even when the database is gone.
        case nothing
        /// The session's database still usable (`config`).
        case database
        /// The database, and no newer version required by the configuration: the feed, item
        /// and task commands are refused while the configuration requires an update.
        case currentVersion
    }

    typealias Action = @Sendable (CommandInput) async throws -> CommandOutput

    /// The words that invoke it and that help shows (`item show`, `read`); the first is its name.
    let names: [String]
    /// Further words that invoke it, accepted but not offered (`feed ls`).
    var aliases: [String] = []
    let usage: String
    /// One sentence on what it does.
    let summary: String
    /// A line to try.
    let example: String
    var arguments: [Argument] = []
    var options: [Option] = []
    var requires: Requirement = .currentVersion
    /// `item 5` is `item show 5`: a group followed by an id runs this command.
    var byID: String? = nil
    /// After this many positional words, every word is positional, `--` ones included
    /// (`alias NAME COMMAND...` keeps the command's options as words).
    var literalAfter: Int? = nil
    /// `nil` for a group.
    let action: Action?

    init(
        _ names: [String], aliases: [String] = [], usage: String, summary: String, example: String,
        arguments: [Argument] = [], options: [Option] = [], requires: Requirement = .currentVersion,
        byID: String? = nil, literalAfter: Int? = nil, action: Action?
    ) {
        self.names = names
        self.aliases = aliases
        self.usage = usage
        self.summary = summary
        self.example = example
        self.arguments = arguments
        self.options = options
        self.requires = requires
        self.byID = byID
        self.literalAfter = literalAfter
        self.action = action
    }

    var name: String { names[0] }
    /// The first word (`feed` for `feed add`).
    var group: String { String(name.split(separator: " ").first ?? "") }
    var isGroup: Bool { action == nil }

    /// The options as `ArgumentList` reads them.
    var optionKinds: [String: ArgumentList.Kind] {
        Dictionary(options.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
    }

    /// Checks the number of positional words against the declared arguments: too few is
    /// `missing <name>`, too many `unexpected …`, each with the usage.
    func checkCount(_ words: [String]) throws(CommandError) {
        let takesAny = arguments.contains { $0.count == .many || $0.count == .rest || $0.count == .optionalRest }
        if !takesAny, words.count > arguments.count {
            let extra = words.dropFirst(arguments.count).joined(separator: " ")
            throw .usage("unexpected \"\(extra)\"; usage: \(usage)")
        }
        var index = 0
        for argument in arguments {
            switch argument.count {
            case .one:
                guard index < words.count else { throw .usage("missing <\(argument.name)>; usage: \(usage)") }
                index += 1
            case .optional:
                index += 1
            case .many, .optionalRest:
                index = words.count
            case .rest:
                guard words.dropFirst(index).contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
                else { throw .usage("missing <\(argument.name)>; usage: \(usage)") }
                index = words.count
            }
        }
    }

    /// The kind of the positional word at `index`, for completion; `nil` past the last.
    func argumentKind(at index: Int) -> ValueKind? {
        var position = 0
        for argument in arguments {
            switch argument.count {
            case .one, .optional:
                if position == index { return argument.kind }
                position += 1
            case .many, .rest, .optionalRest:
                return argument.kind
            }
        }
        return nil
    }
}

/// A command's words as its action reads them, with the session around it.
struct CommandInput: Sendable {
    let command: Command
    let context: CommandContext
    /// The words after the command's name, split into positional words and options.
    let arguments: ArgumentList
    /// The lines entered in earlier interactive sessions (`history`).
    var history: [String] = []

    var usage: String { command.usage }
    var positional: [String] { arguments.positional }

    /// The positional words the declared argument `name` took.
    func words(_ name: String) -> ArraySlice<String> {
        var index = 0
        for argument in command.arguments {
            switch argument.count {
            case .one, .optional:
                if argument.name == name {
                    return index < positional.count ? positional[index...index] : []
                }
                index += 1
            case .many, .rest, .optionalRest:
                return argument.name == name ? positional.dropFirst(index) : []
            }
        }
        return []
    }

    /// The word of `name`, or its words joined by spaces (`.rest`); `nil` when not given.
    func text(_ name: String) -> String? {
        let words = words(name)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The id given as `name` (checked present by the count).
    func id(_ name: String) throws(CommandError) -> Int64 {
        guard let id = try ids(name).first else { throw .usage("missing <\(name)>; usage: \(usage)") }
        return id
    }

    /// The ids given as `name`: one id, or for an argument of many words, ids, ranges and
    /// lists (`812-815`, `4,5`) in any number of words.
    func ids(_ name: String) throws(CommandError) -> [Int64] {
        guard let argument = command.arguments.first(where: { $0.name == name }) else { return [] }
        var ids: [Int64] = []
        for word in words(name) {
            if argument.count == .many {
                ids += try ArgumentList.ids(word, what: argument.kind.described)
            } else {
                ids.append(try ArgumentList.id(word, what: argument.kind.described))
            }
        }
        guard ids.count <= ArgumentList.maxIDs else {
            throw .usage("at most \(ArgumentList.maxIDs) ids at a time (these stand for \(ids.count))")
        }
        return ids
    }

    /// A path argument with `~` expanded.
    func path(_ name: String) -> String {
        ((text(name) ?? "") as NSString).expandingTildeInPath
    }
}
