import ArgumentParser
import Feed
import Foundation
import Models
import Networking

/// `tidings parse <FILE|URL>`: parse one feed and print it, touching no database.
struct ParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tidings parse",
        abstract: "Parse one feed (a file, a file: URL or an http(s) URL) and print it; no database is touched.",
        discussion: "Exit status: 0 parsed (recoverable problems are listed as warnings), 1 not a feed or unreadable.")

    @Argument(help: ArgumentHelp("A feed file or URL.", valueName: "file-or-url"))
    var source: String

    @Flag(help: "Print the feed as one JSON object on one line (see tidings(1)).")
    var json = false

    @Flag(help: "Print one line: format, title, item count, warnings.")
    var summary = false

    func validate() throws {
        if json && summary { throw ValidationError("choose --json or --summary, not both") }
    }

    mutating func run() async throws { try await Self.parse(source: source, json: json, summary: summary) }

    /// The common forms, read without the argument parser: `parse SOURCE` with `--json` or
    /// `--summary` (once, before or after it). The parser's first use looks up type metadata
    /// and conformances, a large share of parsing a typical feed as a whole process.
    /// Anything else (`--help`, `--`, a usage error) goes through the parser.
    struct CommonForm: Equatable {
        var source: String
        var json = false
        var summary = false
    }

    /// Loads and parses `source`, and prints it.
    static func parse(source: String, json: Bool, summary: Bool) async throws {
        // Ctrl-C cancels a fetch in progress (the request stops, status 130); while parsing,
        // which touches nothing on disk, it ends the process at once with the same status.
        let interrupts = Interrupts(exitWhenIdle: true)
        let load = Task { () throws -> FetchedDocument in try await Self.load(source) }
        interrupts.running(load)
        let feed: ParsedFeed
        var itemCount: Int?
        do {
            let document = try await load.value
            interrupts.idle()
            if summary {
                // The summary counts the items as they stream past: memory does not grow with them.
                var count = 0
                feed = try FeedDocumentParser.parse(data: document.body, url: document.url, charset: document.charset) {
                    if case .item = $0 { count += 1 } else { count = 0 }
                }
                itemCount = count
            } else {
                feed = try FeedDocumentParser.parse(data: document.body, url: document.url, charset: document.charset)
            }
        } catch _ where load.isCancelled {
            throw Self.failure("interrupted", status: 130)
        } catch let error as FeedParseError {
            throw Self.failure(error.localizedDescription)
        } catch let error as FeedError {
            throw Self.failure(error.localizedDescription)
        }
        if json {
            Console.standard.out(ParsedFeedRenderer.json(feed).description)
        } else if summary {
            Console.standard.out(ParsedFeedRenderer.summary(feed, itemCount: itemCount))
        } else {
            Console.standard.out(ParsedFeedRenderer.text(feed))
        }
    }

    /// Reads a local path or a `file:` URL (at most 256 MB), or fetches an http(s) URL
    /// (following redirects, waiting out a `Retry-After` of at most 10 s once), through the feed
    /// service's fetcher.
    static func load(
        _ source: String, transport: any HTTPTransport = AppEnvironment.defaultTransport()
    ) async throws(FeedError) -> FetchedDocument {
        let url = try FeedService.url(from: source)
        let fetcher = HTTPFeedFetcher(transport: transport)
        guard
            case .fetched(let document) = try await fetcher.fetchWaitingBriefly(
                url, now: Date.init, sleep: { try await Task.sleep(for: $0) })
        else { throw .http(status: 304) }  // no validators were sent, so no server answers 304
        return document
    }

    private static func failure(_ message: String, status: Int32 = 1) -> ExitCode {
        Console.standard.err("tidings: \(message)")
        return ExitCode(status)
    }
}

extension ParseCommand.CommonForm {
    /// The switches of `tidings parse` as the common form reads them; a test holds them to the
    /// argument parser's declarations of `ParseCommand`.
    /// (Names, not key paths: see `Invocation.switches`.)
    static let switches: Set<String> = ["--json", "--summary"]

    /// The form `arguments` (what follows `parse`) spell, or `nil` for the argument parser.
    init?(_ arguments: [String]) {
        var form = Self(source: "")
        var source: String?
        var seen = Set<String>()
        for argument in arguments {
            if Self.switches.contains(argument) {
                guard seen.insert(argument).inserted else { return nil }
                if argument == "--json" { form.json = true } else { form.summary = true }
            } else {
                guard source == nil, !argument.isEmpty, !argument.hasPrefix("-"), argument != "help" else {
                    return nil
                }
                source = argument
            }
        }
        guard let source, !(form.json && form.summary) else { return nil }
        form.source = source
        self = form
    }
}
