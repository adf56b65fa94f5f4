import Foundation
import Testing

@testable import FeedParser

/// A fixture file from Resources/.
func fixture(_ path: String) throws -> Data {
    let url = try #require(
        Bundle.module.url(forResource: "Resources/" + path, withExtension: nil), "missing fixture \(path)")
    return try Data(contentsOf: url)
}

/// The fixture at `path` parsed as a feed fetched from `url`.
func parseFixture(_ path: String, url: String? = nil) throws -> ParsedFeed {
    try FeedDocumentParser.parse(data: try fixture(path), url: url.flatMap(URL.init(string:)))
}

/// `document` parsed as a feed fetched from `url`.
func parseDocument(_ document: String, url: String? = nil) throws -> ParsedFeed {
    try FeedDocumentParser.parse(data: Data(document.utf8), url: url.flatMap(URL.init(string:)))
}
