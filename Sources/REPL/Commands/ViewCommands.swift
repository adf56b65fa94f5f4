import Feed
import Foundation
import Models

/// `view add|list|remove|show`: saved searches (smart views), NetNewsWire's Today, Unread and
/// Starred among them. A view is a name and `items` filter options, kept as the words that
/// say them, so a relative date (`--since -3d`) stays relative.
struct ViewCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["view"], usage: "view add|list|remove|show", summary: "saved searches (smart views)",
            example: "view list", action: nil),
        Command(
            ["view add"],
            usage:
                "view add <name> [--feed ID] [--tag TAG] [--unread] [--starred] [--new] [--search TEXT] [--since DATE]",
            summary:
                "save items filter options as a view (one of the same name is replaced); dates stay relative, "
                + "so --since today is always today",
            example: "view add Swift --search swift --unread",
            arguments: [.init(name: "name", kind: .view)], options: ItemCommands.filterOptions
        ) { try await ViewCommands(context: $0.context).add($0) },
        Command(
            ["view list"], aliases: ["view ls"], usage: "view list",
            summary: "the views, Today, Unread and Starred first, with their unread/total articles and filters",
            example: "view list"
        ) { try await ViewCommands(context: $0.context).list() },
        Command(
            ["view show"], usage: "view show <name> [--limit N] [--page N]",
            summary: "the view's articles, as items --view shows them (the list next and more move through)",
            example: "view show Today", arguments: [.init(name: "name", kind: .view)],
            options: [.value("limit"), .value("page")]
        ) { try await ViewCommands(context: $0.context).show($0) },
        Command(
            ["view remove"], aliases: ["view rm"], usage: "view remove <name>", summary: "delete a saved view",
            example: "view remove Swift", arguments: [.init(name: "name", kind: .view)]
        ) { try await ViewCommands(context: $0.context).remove($0) },
    ]

    /// The views every home has, NetNewsWire's three.
    static let builtIn: [(name: String, words: [String])] = [
        ("Today", ["--since", "today"]), ("Unread", ["--unread"]), ("Starred", ["--starred"]),
    ]

    /// The longest a view's name may be, in characters.
    static let maximumNameLength = 100

    /// Every view: the built-in ones, then the saved ones in the order they were saved.
    static func all(_ context: CommandContext) async throws -> [(name: String, words: [String], builtIn: Bool)] {
        var views = builtIn.map { (name: $0.name, words: $0.words, builtIn: true) }
        for saved in try await context.feeds.savedViews() {
            views.append((saved.name, words(of: saved), false))
        }
        return views
    }

    /// A saved view's words; a definition that is not a list of words (written by something
    /// else) reads as none.
    static func words(of view: SavedView) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(view.definition.utf8))) ?? []
    }

    /// `arguments` over the filter of the view its `--view` names; `arguments` itself without one.
    static func withView(_ arguments: ArgumentList, context: CommandContext) async throws -> ArgumentList {
        guard let name = arguments.value("view") else { return arguments }
        let views = try await all(context)
        guard let view = views.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            let hint = Suggestion.nearest(to: name, in: views.map(\.name)).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw CommandError(
                code: "not_found",
                message: "no view \"\(TerminalText.sanitized(name))\"\(hint); \"view list\" lists them")
        }
        let base = try ArgumentList(
            view.words, command: "view \(view.name)",
            options: ItemCommands.filterOptionKinds)
        return arguments.merged(over: base)
    }

    private func add(_ input: CommandInput) async throws -> CommandOutput {
        let name = (input.text("name") ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= Self.maximumNameLength,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CommandError.usage(
                "a view's name is 1 to \(Self.maximumNameLength) characters, without control characters")
        }
        if let builtIn = Self.builtIn.first(where: { $0.name.lowercased() == name.lowercased() }) {
            throw CommandError.usage("\(builtIn.name) is a built-in view; choose another name")
        }
        // Checked now, as items would read it: a typo is refused here, not at every use.
        _ = try await ItemCommands.query(input.arguments, context: context)
        var words: [String] = []
        for option in ItemCommands.filterOptions {
            guard let value = input.arguments.options[option.name] else { continue }
            words.append("--" + option.name)
            if option.kind != .flag { words.append(value) }
        }
        guard !words.isEmpty else {
            throw CommandError.usage("a view needs a filter, like: view add \(name) --unread --tag news")
        }
        let definition = String(decoding: try JSONEncoder().encode(words), as: UTF8.self)
        let replaced = try await context.feeds.save(SavedView(name: name, definition: definition))
        let filter = Self.shown(words)
        return CommandOutput(
            text: "\(replaced ? "replaced" : "saved") view \"\(TerminalText.sanitized(name))\": \(filter)",
            json: .object(["ok": .bool(true), "name": .string(name), "filter": .string(filter)]))
    }

    /// The words as a command line (quoted where they hold a space).
    static func shown(_ words: [String]) -> String {
        words.map { word in word.contains(" ") || word.isEmpty ? "\"\(word)\"" : word }.map(TerminalText.sanitized)
            .joined(separator: " ")
    }

    private func list() async throws -> CommandOutput {
        let views = try await Self.all(context)
        var rows: [(name: String, filter: String, counts: ArticleCounts, builtIn: Bool)] = []
        for view in views {
            let base = try? ArgumentList(
                view.words, command: "view",
                options: ItemCommands.filterOptionKinds)
            // A view whose feed has gone since is listed with nothing in it.
            var query = ArticleQuery(feedIDs: [-1])
            if let base, let read = try? await ItemCommands.query(base, context: context) { query = read }
            let total = try await context.feeds.page(matching: query, limit: 1).total
            query.unreadOnly = true
            let unread = try await context.feeds.page(matching: query, limit: 1).total
            rows.append((view.name, Self.shown(view.words), ArticleCounts(unread: unread, total: total), view.builtIn))
        }
        var table = Table(columns: [
            .init(title: "VIEW", flexible: true), .init(title: "UNREAD", alignRight: true),
            .init(title: "FILTER", flexible: true),
        ])
        table.rows = rows.map { [$0.name, "\($0.counts.unread)/\($0.counts.total)", $0.filter] }
        return CommandOutput(
            text: table.render(context.display),
            json: .object([
                "views": .array(
                    rows.map {
                        .object([
                            "name": .string($0.name), "filter": .string($0.filter), "unread": .int($0.counts.unread),
                            "total": .int($0.counts.total), "built_in": .bool($0.builtIn),
                        ])
                    })
            ]))
    }

    private func show(_ input: CommandInput) async throws -> CommandOutput {
        var words = ["--view", input.text("name") ?? ""]
        for (name, value) in input.arguments.options { words += ["--" + name, value] }
        guard let items = CommandCatalog.command(named: "items"), let action = items.action else {
            throw CommandError.unknownCommand("items")
        }
        let arguments = try ArgumentList(words, command: "items", options: items.optionKinds)
        return try await action(CommandInput(command: items, context: context, arguments: arguments))
    }

    private func remove(_ input: CommandInput) async throws -> CommandOutput {
        let name = input.text("name") ?? ""
        if let builtIn = Self.builtIn.first(where: { $0.name.lowercased() == name.lowercased() }) {
            throw CommandError.usage("\(builtIn.name) is a built-in view and stays")
        }
        guard try await context.feeds.removeView(named: name) else {
            throw CommandError(code: "not_found", message: "no saved view \"\(TerminalText.sanitized(name))\"")
        }
        return .ok("removed view \"\(TerminalText.sanitized(name))\"")
    }
}
