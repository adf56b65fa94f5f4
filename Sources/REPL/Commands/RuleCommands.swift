import Feed
import Foundation
import Models

/// `rule add|list|remove`: newsboat's killfile. A rule looks at one field of the articles each
/// refresh brings and marks those it catches read, or hides them.
struct RuleCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["rule"], usage: "rule add|list|remove", summary: "rules for new articles: mark read or hide",
            example: "rule list", action: nil),
        Command(
            ["rule add"], usage: "rule add <read|hide> <pattern> [--in FIELD] [--regex] [--dry-run]",
            summary:
                "a rule for the articles each refresh brings: every word of the pattern (a \"phrase\" in double "
                + "quotes as one) must occur in the FIELD (title, author, feed, tag, link, text or any: title or "
                + "text; default title), case and accents ignored, or the pattern is a regular expression "
                + "(--regex); read marks what it catches read, hide deletes it for good (never a starred one). "
                + "--dry-run lists the stored articles it would catch and saves nothing",
            example: "rule add hide sponsored --in title",
            arguments: [.init(name: "read|hide", kind: .text), .init(name: "pattern", kind: .text, count: .rest)],
            options: [.value("in"), .flag("regex"), .flag("dry-run")]
        ) { try await RuleCommands(context: $0.context).add($0) },
        Command(
            ["rule test"], usage: "rule test <read|hide> <pattern> [--in FIELD] [--regex], or rule test <ID>",
            summary:
                "the stored articles a rule would catch, saving nothing (as rule add --dry-run); with an id, a "
                + "saved rule's",
            example: "rule test hide sponsored",
            arguments: [
                .init(name: "read|hide", kind: .text), .init(name: "pattern", kind: .text, count: .optionalRest),
            ],
            options: [.value("in"), .flag("regex")]
        ) { try await RuleCommands(context: $0.context).test($0) },
        Command(
            ["rule list"], aliases: ["rule ls"], usage: "rule list",
            summary: "the rules with what each does and how many articles it has caught", example: "rule list"
        ) { try await RuleCommands(context: $0.context).list() },
        Command(
            ["rule remove"], aliases: ["rule rm"], usage: "rule remove <ID>", summary: "delete a rule",
            example: "rule remove 1", arguments: [.init(name: "ID", kind: .text)]
        ) { try await RuleCommands(context: $0.context).remove($0) },
    ]

    private func test(_ input: CommandInput) async throws -> CommandOutput {
        let first = input.text("read|hide") ?? ""
        guard input.text("pattern") == nil, let id = try? ArgumentList.id(first) else {
            guard input.text("pattern") != nil else {
                throw CommandError.usage("missing <pattern>; usage: \(input.usage)")
            }
            return try await dryRun(try Self.rule(input))
        }
        guard let rule = try await context.feeds.rules().first(where: { $0.id == id }) else {
            throw CommandError(code: "not_found", message: "no rule #\(id)")
        }
        return try await dryRun(rule)
    }

    /// The stored articles `rule` would catch, the first 20 listed.
    private func dryRun(_ rule: ArticleRule) async throws -> CommandOutput {
        let caught = try await context.feeds.articles(caughtBy: rule)
        var lines = ["\(Self.describe(rule)) would catch \(counted(caught.count, "stored item"))"]
        for id in caught.prefix(20) {
            let title = (try? await context.feeds.article(id: id).article.title) ?? nil
            lines.append("  #\(id) " + TerminalText.sanitized(title ?? "(untitled)"))
        }
        if caught.count > 20 { lines.append("  …") }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .object(["saved": .bool(false), "caught": .array(caught.map { .int($0) })]))
    }

    /// The rule `input` describes (`read|hide`, the pattern, `--in`, `--regex`).
    private static func rule(_ input: CommandInput) throws -> ArticleRule {
        let word = (input.text("read|hide") ?? "").lowercased()
        guard let action = ArticleRule.Action(rawValue: word) else {
            let hint = Suggestion.nearest(to: word, in: ArticleRule.Action.allCases.map(\.rawValue)).map {
                " (did you mean \"\($0)\"?)"
            }
            throw CommandError.usage(
                "a rule either marks read or hides: \"\(word)\" is neither\(hint ?? ""); usage: \(input.usage)")
        }
        let fieldName = input.arguments.value("in")?.lowercased() ?? "title"
        guard let field = ArticleRule.Field(rawValue: fieldName) else {
            throw CommandError.usage(
                "--in takes one of " + ArticleRule.Field.allCases.map(\.rawValue).joined(separator: ", ")
                    + " (got \"\(TerminalText.sanitized(fieldName))\")")
        }
        return ArticleRule(
            field: field, pattern: input.text("pattern") ?? "", isRegex: input.arguments.has("regex"), action: action)
    }

    private func add(_ input: CommandInput) async throws -> CommandOutput {
        let rule = try Self.rule(input)
        let description = Self.describe(rule)
        if input.arguments.has("dry-run") { return try await dryRun(rule) }
        let saved = try await context.feeds.addRule(rule)
        return CommandOutput(
            text: "added rule #\(saved.id ?? 0): \(description)",
            json: .object(["id": .int(saved.id ?? 0)]))
    }

    /// `hide what has "sponsored" in the title`.
    static func describe(_ rule: ArticleRule) -> String {
        let verb = rule.action == .read ? "mark read" : "hide"
        let what =
            rule.isRegex
            ? "what matches /\(TerminalText.sanitized(rule.pattern))/"
            : "what has \"\(TerminalText.sanitized(rule.pattern))\""
        let place = rule.field == .any ? "in the title or text" : "in the \(rule.field.rawValue)"
        return "\(verb) \(what) \(place)"
    }

    private func list() async throws -> CommandOutput {
        let rules = try await context.feeds.rules()
        var table = Table(columns: [
            .init(title: "ID", alignRight: true), .init(title: "ACTION"), .init(title: "IN"),
            .init(title: "PATTERN", flexible: true), .init(title: "CAUGHT", alignRight: true),
        ])
        table.rows = rules.map {
            [
                String($0.id ?? 0), $0.action.rawValue, $0.field.rawValue, $0.isRegex ? "/\($0.pattern)/" : $0.pattern,
                String($0.caught),
            ]
        }
        return CommandOutput(
            text: rules.isEmpty ? "no rules; add one with \"rule add hide <pattern>\"" : table.render(context.display),
            json: .object([
                "rules": .array(
                    rules.map {
                        .object([
                            "id": .int($0.id ?? 0), "action": .string($0.action.rawValue),
                            "in": .string($0.field.rawValue), "pattern": .string($0.pattern),
                            "regex": .bool($0.isRegex), "caught": .int($0.caught),
                        ])
                    })
            ]))
    }

    private func remove(_ input: CommandInput) async throws -> CommandOutput {
        let id = try ArgumentList.id(input.text("ID") ?? "", what: "a rule id")
        guard try await context.feeds.rules().contains(where: { $0.id == id }) else {
            throw CommandError(code: "not_found", message: "no rule #\(id)")
        }
        try await context.feeds.removeRule(id: id)
        return .ok("removed rule #\(id)")
    }
}
