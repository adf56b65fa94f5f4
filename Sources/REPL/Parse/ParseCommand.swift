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

    @Flag(help: "Print SPEC.md's JSON object (one line).")
    var json = false

    @Flag(help: "Print one line: format, title, item count, warnings.")
    var summary = false

    func validate() throws {
        if json && summary { throw ValidationError("choose --json or --summary, not both") }
    }

    mutating func run() async throws {
        let feed: ParsedFeed
        do {
            let (data, url, charset) = try await Self.load(source)
            feed = try FeedParser.parse(data: data, url: url, charset: charset)
        } catch let error as FeedParseError {
            throw Self.failure(error.localizedDescription)
        } catch let error as NetworkError {
            throw Self.failure(error.localizedDescription)
        }
        if json {
            print(ParsedFeedRenderer.json(feed).description)
        } else if summary {
            print(ParsedFeedRenderer.summary(feed))
        } else {
            print(ParsedFeedRenderer.text(feed))
        }
    }

    /// Reads a local file, a `file:` URL, or fetches an http(s) URL (following redirects),
    /// with the response's charset, if it named one.
    static func load(_ source: String) async throws -> (Data, URL?, String?) {
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) {
            let client = APIClient(baseURL: url, transport: CurlTransport())
            let response = try await client.send(HTTPRequest(url: url, headers: ["Accept": FeedMedia.accept]))
            guard response.isSuccess else { throw NetworkError.status(response) }
            return (response.body, response.url, response.charset)
        }
        let fileURL =
            URL(string: source).flatMap { $0.scheme?.lowercased() == "file" ? $0 : nil } ?? URL(fileURLWithPath: source)
        do {
            return (try Data(contentsOf: fileURL), fileURL, nil)
        } catch {
            throw FeedParseError.notAFeed("cannot read \(fileURL.path)")
        }
    }

    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("tidings: \(message)\n".utf8))
        return ExitCode(1)
    }
}

/// The media types a feed request accepts.
enum FeedMedia {
    static let accept =
        "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1"
}
