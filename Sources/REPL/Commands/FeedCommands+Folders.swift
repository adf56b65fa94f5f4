import Feed
import Foundation
import Models

/// `feed tag|untag|tags` and `feed keep|purge`: a feed's tags (OPML folders) and its retention.
extension FeedCommands {
    func tag(_ input: CommandInput) async throws -> CommandOutput {
        let ids = try ArgumentList.ids(input.text("ID") ?? "", what: "a feed id")
        let tags = Array(input.words("tag"))
        try await context.feeds.tag(ids, with: tags)
        let shown = tags.map { TerminalText.sanitized(FeedTag.normalized($0)) }.joined(separator: ", ")
        return .ok("tagged \(Self.feeds(ids)) \(shown)")
    }

    func untag(_ input: CommandInput) async throws -> CommandOutput {
        let ids = try ArgumentList.ids(input.text("ID") ?? "", what: "a feed id")
        let removed = try await context.feeds.untag(ids, tags: Array(input.words("tag")))
        return CommandOutput(
            text: "removed \(counted(removed, "tag")) from \(Self.feeds(ids))",
            json: .object(["ok": .bool(true), "removed": .int(removed)]))
    }

    /// `feed #3`, `feeds #3, #4`.
    static func feeds(_ ids: [Int64]) -> String {
        (ids.count == 1 ? "feed " : "feeds ") + ids.map { "#\($0)" }.joined(separator: ", ")
    }

    func tags() async throws -> CommandOutput {
        let tags = try await context.feeds.tagSummaries()
        var table = Table(columns: [
            .init(title: "TAG", flexible: true), .init(title: "FEEDS", alignRight: true),
            .init(title: "UNREAD", alignRight: true),
        ])
        table.rows = tags.map { [$0.tag, String($0.feeds), "\($0.counts.unread)/\($0.counts.total)"] }
        return CommandOutput(
            text: tags.isEmpty
                ? "no tags yet; give a feed one with \"feed tag <ID> <tag>\"" : table.render(context.display),
            json: .object([
                "tags": .array(
                    tags.map {
                        .object([
                            "tag": .string($0.tag), "feeds": .int($0.feeds), "unread": .int($0.counts.unread),
                            "total": .int($0.counts.total),
                        ])
                    })
            ]))
    }

    func keep(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let arguments = input.arguments
        func count(_ name: String, _ limit: Int) throws -> Int? {
            guard let text = arguments.value(name) else { return nil }
            guard let number = Int(text), number >= 0, number <= limit else {
                throw CommandError.usage(
                    "--\(name) needs a whole number from 0 (keep all) to \(limit) (got \"\(text)\")")
            }
            return number
        }
        let items = try count("items", 1_000_000)
        let days = try count("days", 36_500)
        if arguments.has("default") && (items != nil || days != nil) {
            throw CommandError.usage("choose --default or --items/--days, not both")
        }
        var (own, fallback) = try await context.feeds.retention(feedID: id)
        if arguments.has("default") {
            own = nil
            try await context.feeds.setRetention(RetentionPolicy(), feedID: id)
        } else if items != nil || days != nil {
            let policy = RetentionPolicy(items: items ?? own?.items, days: days ?? own?.days)
            try await context.feeds.setRetention(policy, feedID: id)
            own = policy
        }
        func shown(_ value: Int?, _ unit: String, _ fallbackValue: Int?) -> String {
            let (number, source) = value.map { ($0, "its own") } ?? (fallbackValue ?? 0, "the default")
            return (number == 0 ? "all \(unit)" : "\(number) \(unit)") + " (\(source))"
        }
        return CommandOutput(
            text: "feed #\(id) keeps \(shown(own?.items, "articles", fallback.items)); read ones for "
                + shown(own?.days, "days", fallback.days).replacingOccurrences(of: "all days", with: "ever"),
            json: .object([
                "id": .int(id), "items": .int(own?.items ?? fallback.items ?? 0),
                "days": .int(own?.days ?? fallback.days ?? 0),
                "own": .bool(own != nil),
            ]))
    }

    func purge() async throws -> CommandOutput {
        let purged = try await context.feeds.purge()
        return CommandOutput(
            text: "purged \(counted(purged.deleted, "article"))" + Self.freed(purged.freedBytes),
            json: .object(["deleted": .int(purged.deleted), "freed_bytes": .int(purged.freedBytes)]))
    }

    /// `; the database gave back 12.3 MB`, or nothing.
    static func freed(_ bytes: Int64) -> String {
        bytes > 0
            ? "; the database gave back \(ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file))" : ""
    }
}
