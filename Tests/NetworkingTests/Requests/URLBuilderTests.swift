import Foundation
import Networking
import Testing

@Suite("URLBuilder")
struct URLBuilderTests {
    func url(_ base: String, _ path: String, _ query: [URLQueryItem] = []) throws -> String {
        try URLBuilder(baseURL: #require(URL(string: base))).url(path: path, query: query).absoluteString
    }

    @Test(
        "joins base and path whatever the slashes",
        arguments: [
            ("https://api.example.com/v1", "feeds/7"), ("https://api.example.com/v1/", "feeds/7"),
            ("https://api.example.com/v1", "/feeds/7"), ("https://api.example.com/v1/", "/feeds/7"),
        ])
    func joinsPaths(base: String, path: String) throws {
        #expect(try url(base, path) == "https://api.example.com/v1/feeds/7")
    }

    @Test("keeps a trailing slash the path asks for, and the base alone for an empty path")
    func trailingSlash() throws {
        #expect(try url("https://example.com/api", "items/") == "https://example.com/api/items/")
        #expect(try url("https://example.com/api", "") == "https://example.com/api")
    }

    @Test("percent-encodes path segments and query values, including + and &")
    func encodes() throws {
        let result = try url(
            "https://example.com", "search/rock & roll",
            [URLQueryItem(name: "q", value: "a+b&c=d é"), URLQueryItem(name: "flag", value: nil)])
        #expect(result == "https://example.com/search/rock%20&%20roll?q=a%2Bb%26c%3Dd%20%C3%A9&flag")
    }

    @Test("appends to a query the base already has")
    func existingQuery() throws {
        #expect(
            try url("https://example.com/feed?format=rss", "", [URLQueryItem(name: "page", value: "2")])
                == "https://example.com/feed?format=rss&page=2")
    }

    @Test("an absolute http(s) path replaces the base")
    func absolutePath() throws {
        #expect(
            try url("https://api.example.com/v1", "https://cdn.example.com/a.json") == "https://cdn.example.com/a.json")
    }

    @Test("an endpoint carries its method, path and query")
    func endpoint() {
        let endpoint = Endpoint<[String]>.get("feeds", query: [URLQueryItem(name: "limit", value: "5")])
        #expect(endpoint.method == .get)
        #expect(endpoint.path == "feeds")
        #expect(endpoint.query.count == 1)
        #expect(HTTPMethod(rawValue: "post") == .post)
    }
}
