import Foundation

/// The commands of the REPL, in the order `help` lists them, and how a line's words find one.
enum CommandCatalog {
    static let all: [Command] =
        FeedCommands.commands + ItemCommands.commands + DownloadCommands.commands + ViewCommands.commands
        + RuleCommands.commands + TaskCommands.commands + ChoreSyncCommands.commands + AccountCommands.commands
        + ConfigCommands.commands
        + SettingCommands.commands + SessionCommands.commands

    /// Every name and alias, lowercased, to its command.
    private static let byName: [String: Command] = {
        var table: [String: Command] = [:]
        for command in all {
            for name in command.names + command.aliases where table[name] == nil { table[name] = command }
        }
        return table
    }()

    /// The commands under a group or command (`feed add`, … under `feed`; `task sync setup` under
    /// `task sync`): those whose name is its name and one word more.
    static func children(of command: Command) -> [Command] {
        let depth = command.name.split(separator: " ").count + 1
        return all.filter {
            $0.name.hasPrefix(command.name + " ") && $0.name.split(separator: " ").count == depth
        }
    }

    /// The command `words` start with (the longest name that matches, case ignored) and the
    /// words after its name. A group's own words are checked here: a missing or unknown
    /// sub-command is a usage error naming the sub-commands; `item 5` runs `item show 5`.
    static func resolve(_ words: [String]) throws(CommandError) -> (command: Command, rest: [String]) {
        let lowered = words.prefix(3).map { $0.lowercased() }
        var found: (Command, Int)?
        for length in stride(from: lowered.count, through: 1, by: -1) {
            if let command = byName[lowered.prefix(length).joined(separator: " ")] {
                found = (command, length)
                break
            }
        }
        guard let (command, length) = found else { throw .unknownCommand(lowered.first ?? "") }
        let rest = Array(words.dropFirst(length))
        let children = children(of: command)
        if children.isEmpty { return (command, rest) }
        let names = children.map { String($0.name.split(separator: " ").last ?? "") }
        guard let next = rest.first else {
            if !command.isGroup { return (command, rest) }
            throw .usage(
                "\(command.name) needs a sub-command: \(names.joined(separator: ", ")); try \"help \(command.name)\"")
        }
        if !command.isGroup, next.hasPrefix("-") || !command.arguments.isEmpty { return (command, rest) }
        if let target = command.byID, (try? ArgumentList.id(next)) != nil, let shown = byName[target] {
            return (shown, rest)
        }
        let hint = Suggestion.nearest(to: next.lowercased(), in: names).map {
            " (did you mean \"\(command.name) \($0)\"?)"
        }
        throw .usage("\(command.name) has no sub-command \"\(next.lowercased())\"\(hint ?? "")")
    }

    /// Every word that starts a command, for completion and suggestions.
    static var words: [String] {
        var seen = Set<String>()
        return all.flatMap(\.names).compactMap { name in
            let first = String(name.split(separator: " ")[0])
            return seen.insert(first).inserted ? first : nil
        }
    }

    /// The sub-commands of a command's name (`add`, `list`, … for `feed`; `status`, `setup` for
    /// `task sync`).
    static func subcommands(of name: String) -> [String] {
        let depth = name.split(separator: " ").count + 1
        return all.flatMap(\.names).compactMap { other in
            let parts = other.split(separator: " ")
            guard parts.count == depth, parts.dropLast().joined(separator: " ") == name else { return nil }
            return parts.last.map(String.init)
        }
    }

    /// The command a name or a name with its sub-command names.
    static func command(named words: String) -> Command? {
        byName[words.lowercased().split(separator: " ").joined(separator: " ")]
    }

    /// The command synopses for `tidings --help`, each wrapped to `width` columns with a hanging
    /// indent (the argument parser rewraps any longer line at 80 columns).
    static func synopsis(width: Int = 78) -> String {
        all.filter { !$0.isGroup }.map { command in
            var lines: [String] = []
            var line = " "
            for word in command.usage.split(separator: " ") {
                if line.count + 1 + word.count > width, line.trimmingCharacters(in: .whitespaces).count > 0 {
                    lines.append(line)
                    line = "     "
                }
                line += " " + word
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The commands as a block of text for `help`: one line per command.
    static var overview: String { overview(width: nil) }

    /// Every command's usage and summary; summaries wrap by words within `width` columns, each
    /// under the summary column.
    static func overview(width: Int?) -> String {
        let listed = all.filter { !$0.isGroup }
        let column = min(44, listed.map(\.usage.count).max() ?? 0)
        let indent = String(repeating: " ", count: column + 4)
        return listed.map { command in
            let usage = command.usage
            let summary = TextWrap.wrap(command.summary, width: width.map { max(20, $0 - column - 4) })
                .replacingOccurrences(of: "\n", with: "\n" + indent)
            return usage.count > column
                ? "  \(usage)\n" + indent + summary
                : "  " + usage.padding(toLength: column, withPad: " ", startingAt: 0) + "  " + summary
        }.joined(separator: "\n")
    }
}
