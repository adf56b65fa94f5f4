import Foundation

/// One REPL command as help describes it.
struct CommandHelp: Sendable, Equatable {
    /// The words that invoke it (`feed add`, or `quit`/`exit`), the first being its name.
    let names: [String]
    /// The synopsis.
    let usage: String
    /// One sentence on what it does.
    let summary: String
    /// A line to try.
    let example: String
    /// The first word (`feed` for `feed add`).
    var group: String { String(name.split(separator: " ").first ?? "") }
    /// An entry for a whole family (`feed`), listing its sub-commands in help.
    var isGroup: Bool { !name.contains(" ") && CommandCatalog.all.contains { $0.name.hasPrefix(name + " ") } }

    var name: String { names[0] }
}

/// The commands of the REPL, in the order `help` lists them.
enum CommandCatalog {
    static let all: [CommandHelp] = [
        .init(
            names: ["feed"], usage: "feed add|list|refresh|remove|rename|import|export|discover",
            summary: "manage subscriptions", example: "feed list"),
        .init(
            names: ["feed add"], usage: "feed add <url-or-path> [--title T]",
            summary: "subscribe (an HTML page is searched for its feed) and fetch it at once",
            example: "feed add https://www.swift.org/atom.xml"),
        .init(
            names: ["feed list"], usage: "feed list",
            summary: "subscriptions with unread/total counts, the last refresh result and the URL", example: "feed list"
        ),
        .init(
            names: ["feed refresh"], usage: "feed refresh [ID...]",
            summary: "refresh the given feeds or all, concurrently, and summarise", example: "feed refresh"),
        .init(
            names: ["feed remove"], usage: "feed remove <ID>",
            summary: "unsubscribe and delete the feed's items (starred ones too)", example: "feed remove 3"),
        .init(
            names: ["feed rename"], usage: "feed rename <ID> <title>", summary: "rename a feed",
            example: "feed rename 3 Swift blog"),
        .init(
            names: ["feed import"], usage: "feed import <opml-file>",
            summary: "subscribe to an OPML list without fetching (run feed refresh next)",
            example: "feed import ~/feeds.opml"),
        .init(
            names: ["feed export"], usage: "feed export <opml-file>", summary: "write the subscriptions as OPML 2.0",
            example: "feed export ~/feeds.opml"),
        .init(
            names: ["feed discover"], usage: "feed discover <url>",
            summary: "list the feeds an HTML page links to, without subscribing",
            example: "feed discover https://www.swift.org/"),
        .init(
            names: ["items"], usage: ItemCommands.itemsUsage,
            summary:
                "articles, newest first, 20 a page (● unread, ★ starred); dates: today, -2w, 2026-11-01. "
                + "--search: every word must occur in the title or text, case ignored; a word of three or more "
                + "characters matches anywhere, inside other words too; a shorter one matches the start of a word "
                + "(accents ignored), or anywhere when it is Chinese, Japanese, Korean, Thai, an emoji or a symbol",
            example: "items --unread --since -3d"),
        .init(
            names: ["item"], usage: "item show|open|mark", summary: "read, open or mark articles",
            example: "item show 1"),
        .init(
            names: ["item show", "read"], usage: "item show <ID> [--no-pager] (or read <ID>)",
            summary:
                "an article as text (paragraphs, lists, verbatim code, quotes, tables, [image: alt], numbered links listed after it, enclosures; an episode's season, number, length and artwork), paged through $PAGER when longer than the screen; marks it read",
            example: "read 1"),
        .init(
            names: ["item open"], usage: "item open <ID>",
            summary: "open the article's web page with $BROWSER (else xdg-open); marks it read", example: "item open 1"),
        .init(
            names: ["item mark"], usage: "item mark <ID...> read|unread|star|unstar | item mark --feed ID --all read",
            summary: "mark articles", example: "item mark 1 2 star"),
        .init(
            names: ["task"], usage: "task add|list|done|edit|remove|undo|from-item|sync", summary: "household tasks",
            example: "task list"),
        .init(
            names: ["task add"],
            usage: "task add <name> [--due DATE] [--every N day|week|month|year] [--note TEXT]",
            summary: "add a task; recurring with --every (due today unless --due)",
            example: "task add \"Take out the bins\" --every 1 week"),
        .init(
            names: ["task list"], usage: "task list [--overdue|--today|--upcoming|--done|--all]",
            summary:
                "open tasks by next due date, undated last; --today is due today, --upcoming tomorrow through the next 7 days, --overdue before today, --done the done ones, --all every task",
            example: "task list --overdue"),
        .init(
            names: ["task done"], usage: "task done <ID>",
            summary: "complete a task: a recurring one moves to its next due date, a one-off one is done",
            example: "task done 1"),
        .init(
            names: ["task edit"], usage: "task edit <ID> [--name T] [--due DATE] [--every N unit|--once] [--note TEXT]",
            summary: "change a task", example: "task edit 1 --every 2 weeks"),
        .init(names: ["task remove"], usage: "task remove <ID>", summary: "delete a task", example: "task remove 1"),
        .init(names: ["task undo"], usage: "task undo", summary: "undo the last task change", example: "task undo"),
        .init(
            names: ["task from-item"], usage: "task from-item <ID> [--due DATE]",
            summary: "turn an article into a one-off \"read later\" task", example: "task from-item 4 --due tomorrow"),
        .init(
            names: ["task sync"], usage: "task sync [status]",
            summary:
                "two-way sync of the tasks with the CalDAV collection set up, then what was sent, received and deleted, and the conflicts; status shows the set-up and the last sync",
            example: "task sync"),
        .init(
            names: ["task sync setup"], usage: "task sync setup <collection-url> [--user NAME]",
            summary:
                "share the tasks through a CalDAV calendar collection (checked first); the password comes from ~/.netrc or $TIDINGS_CALDAV_PASSWORD and is never stored",
            example: "task sync setup https://dav.example.org/alice/chores/ --user alice"),
        .init(
            names: ["config"], usage: "config show|refresh|get", summary: "the remote configuration",
            example: "config show"),
        .init(
            names: ["config show"], usage: "config show",
            summary: "every key with its value and source, the minimum version and the last refresh",
            example: "config show"),
        .init(
            names: ["config refresh"], usage: "config refresh",
            summary: "fetch the remote config now, activate and keep it, print the changed keys",
            example: "config refresh"),
        .init(
            names: ["config get"], usage: "config get <key>", summary: "one value (nested keys with dots)",
            example: "config get features.fullTextSearch"),
        .init(
            names: ["help"], usage: "help [command]",
            summary: "list the commands, or show one command's usage and an example", example: "help feed add"),
        .init(
            names: ["history"], usage: "history",
            summary: "show the lines entered in earlier interactive sessions, oldest first", example: "history"),
        .init(
            names: ["quit", "exit"], usage: "quit | exit | Ctrl-D",
            summary: "leave Tidings (the history is already saved)",
            example: "quit"),
    ]

    /// Every word that starts a command, for completion and suggestions.
    static var words: [String] {
        var seen = Set<String>()
        return all.flatMap(\.names).compactMap { name in
            let first = String(name.split(separator: " ")[0])
            return seen.insert(first).inserted ? first : nil
        }
    }

    /// The sub-commands of a command word (`add`, `list`, … for `feed`).
    static func subcommands(of word: String) -> [String] {
        all.flatMap(\.names).compactMap { name in
            let parts = name.split(separator: " ")
            return parts.count == 2 && parts[0] == word ? String(parts[1]) : nil
        }
    }

    /// The command a name or a name with its sub-command names.
    static func command(named words: String) -> CommandHelp? {
        let key = words.lowercased().split(separator: " ").joined(separator: " ")
        return all.first { $0.names.contains(key) }
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
