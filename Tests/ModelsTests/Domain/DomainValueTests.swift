import Foundation
import Models
import Testing

@Suite("Domain values")
struct DomainValueTests {
    @Test("a token expires with leeway for clock skew")
    func tokenExpiry() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let token = Token(accessToken: "abc", refreshToken: "r", expiresAt: now.addingTimeInterval(60))
        #expect(!token.isExpired(at: now))
        #expect(token.isExpired(at: now.addingTimeInterval(31)))
        #expect(token.isExpired(at: now.addingTimeInterval(10), leeway: 60))
        #expect(!Token(accessToken: "forever").isExpired(at: .distantFuture))
        #expect(token.authorizationHeader == "Bearer abc")
        #expect(Token.basic(user: "jo", password: "pa:ss").authorizationHeader == "Basic am86cGE6c3M=")
    }

    @Test("a token decodes from an OAuth-style snake_case payload")
    func tokenDecodes() throws {
        let json = #"{"access_token":"abc","refresh_token":"def","expires_at":"2026-11-22T10:00:00Z"}"#
        let token = try JSONCoding.decoder().decode(Token.self, from: Data(json.utf8))
        #expect(
            token
                == Token(accessToken: "abc", refreshToken: "def", expiresAt: RFC3339.date(from: "2026-11-22T10:00:00Z"))
        )
        // A bearer token is written as before schemes existed; a Basic one keeps its scheme.
        let written = String(decoding: try JSONCoding.encoder().encode(token), as: UTF8.self)
        #expect(!written.contains("scheme"))
        let basic = Token.basic(user: "jo", password: "pw")
        let again = try JSONCoding.decoder().decode(Token.self, from: try JSONCoding.encoder().encode(basic))
        #expect(again == basic && again.scheme == "Basic")
    }

    @Test(
        "refresh results read and write SPEC's last_result strings",
        arguments: [
            (RefreshResult.ok, "ok"), (.notModified, "not_modified"), (.failed(reason: "HTTP 404"), "error: HTTP 404"),
        ])
    func refreshResultText(result: RefreshResult, text: String) throws {
        #expect(result.description == text)
        #expect(RefreshResult(text) == result)
        let data = try JSONEncoder().encode([result])
        #expect(try JSONDecoder().decode([RefreshResult].self, from: data) == [result])
    }

    @Test("an article round-trips through snake_case JSON, enclosure type and all")
    func articleRoundTrip() throws {
        let article = Article(
            id: 5, feedID: 2, uniqueID: "guid-1", externalID: "guid-1", title: "Hello",
            link: URL(string: "https://example.com/hello"), published: RFC3339.date(from: "2021-03-13T09:00:00Z"),
            authors: [Author(name: "Jo", email: "jo@example.com")], summary: "Hi", contentHTML: "<p>Hi</p>",
            categories: ["news"],
            enclosures: [
                Enclosure(url: URL(string: "https://example.com/a.mp3")!, mimeType: "audio/mpeg", length: 1234)
            ])
        let data = try JSONCoding.encoder().encode(article)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""enclosures":[{"length":1234,"type":"audio/mpeg","url":"https://example.com/a.mp3"}]"#))
        #expect(text.contains(#""feed_id":2"#))
        #expect(text.contains(#""published":"2021-03-13T09:00:00Z""#))
        #expect(try JSONCoding.decoder().decode(Article.self, from: data) == article)
        #expect(article.sortDate == article.published)
    }

    @Test("a feed source keeps its validators and last result through JSON")
    func feedSourceRoundTrip() throws {
        let source = FeedSource(
            id: 1, url: URL(string: "https://example.com/feed.xml")!, title: "Example", format: .rss20,
            etag: "\"abc\"", lastModified: "Sat, 13 Mar 2021 09:00:00 GMT", contentHash: "ff00",
            lastResult: .failed(reason: "timed out"), lastRefreshedAt: RFC3339.date(from: "2021-03-13T09:00:00Z"))
        let data = try JSONCoding.encoder().encode(source)
        #expect(String(decoding: data, as: UTF8.self).contains(#""last_result":"error: timed out""#))
        #expect(try JSONCoding.decoder().decode(FeedSource.self, from: data) == source)
    }

    @Test("an article status round-trips through snake_case JSON with its read and starred flags")
    func statusRoundTrip() throws {
        let status = ArticleStatus(
            feedID: 3, uniqueID: "guid-1", isRead: true, isStarred: false,
            arrivedAt: try #require(RFC3339.date(from: "2026-11-22T10:00:00Z")))
        let data = try JSONCoding.encoder().encode(status)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""feed_id":3"#))
        #expect(text.contains(#""unique_id":"guid-1""#))
        #expect(text.contains(#""is_read":true"#) && text.contains(#""is_starred":false"#))
        #expect(try JSONCoding.decoder().decode(ArticleStatus.self, from: data) == status)
    }
}
