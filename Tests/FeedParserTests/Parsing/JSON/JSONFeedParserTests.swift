import Foundation
import Models
import Testing

@testable import FeedParser

@Suite("JSON Feed parser")
struct JSONFeedParserTests {
    let documentURL = URL(string: "https://example.org/feed.json")

    @Test("a \\u0000 in a JSON string reads as U+FFFD, so the text is not cut short where it is stored")
    func escapedNUL() throws {
        let json =
            #"{"version":"https://jsonfeed.org/version/1.1","title":"A\u0000B tail","items":[{"id":"1","title":"x\u0000y"}]}"#
        let feed = try FeedDocumentParser.parse(data: Data(json.utf8), url: nil)
        #expect(feed.title == "A\u{FFFD}B tail")
        #expect(feed.items.first?.title == "x\u{FFFD}y")
    }

    @Test("a JSON Feed 1.1 document: feed fields, items in order, relative URLs resolved")
    func version11() throws {
        let feed = try JSONFeedParser.parse(try fixture("jsonfeed/v1.1-basic.json"), url: documentURL)
        #expect(feed.format == .jsonFeed11)
        #expect(feed.title == "My Example Feed")
        #expect(feed.link == URL(string: "https://example.org/"))
        #expect(feed.feedURL == URL(string: "https://example.org/feed.json"))
        #expect(feed.description == "A feed for tests")
        #expect(feed.language == "en-GB")
        #expect(feed.icon == URL(string: "https://example.org/icon.png"))
        #expect(feed.authors == [Author(name: "Jo", uri: "https://example.org/jo")])
        #expect(feed.warnings.isEmpty)
        #expect(feed.items.map(\.uniqueID) == ["2", "1"])

        let second = feed.items[0]
        #expect(second.contentText == "This is a second item.")
        #expect(second.categories == ["news", "swift"])
        #expect(second.published == RFC3339.date(from: "2021-03-13T09:00:00Z"))

        let first = feed.items[1]
        #expect(first.title == "Hello")
        #expect(first.link == URL(string: "https://example.org/initial-post"))
        #expect(first.externalLink == URL(string: "https://elsewhere.example/page"))
        #expect(first.contentHTML == "<p>Hello, world!</p>")
        #expect(first.summary == "A greeting")
        #expect(first.published == RFC3339.date(from: "2021-03-12T08:00:00Z"))
        #expect(first.updated == RFC3339.date(from: "2021-03-12T09:00:00Z"))
        #expect(
            first.enclosures == [
                Enclosure(url: URL(string: "https://cdn.example.org/a.mp3")!, mimeType: "audio/mpeg", length: 12345)
            ])
    }

    @Test("JSON Feed 1.0: the single author, numeric ids, and items without an id get the hashed identity")
    func version10() throws {
        let feed = try JSONFeedParser.parse(try fixture("jsonfeed/v1.0-author.json"), url: nil)
        #expect(feed.format == .jsonFeed10)
        #expect(feed.authors == [Author(name: "Sam")])
        #expect(feed.items[0].id == "42")
        #expect(feed.items[0].uniqueID == "42")
        #expect(feed.items[1].id == nil)
        #expect(
            feed.items[1].uniqueID
                == ArticleIdentity.uniqueID(
                    id: nil, permalink: URL(string: "https://example.org/no-id"), link: nil, title: "No id",
                    date: RFC3339.date(from: "2021-03-13T09:00:00Z"), body: nil))
    }

    @Test("an item without authors has the feed's; its own authors win")
    func authorInheritance() throws {
        let json = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "T", "authors": [{"name": "Feed"}],
             "items": [{"id": "1", "content_text": "a"}, {"id": "2", "content_text": "b", "authors": [{"name": "Own"}]}]}
            """#
        let feed = try JSONFeedParser.parse(Data(json.utf8), url: nil)
        #expect(feed.items.map(\.authors) == [[Author(name: "Feed")], [Author(name: "Own")]])
    }

    @Test("broken items are skipped with a warning; the rest of the feed survives")
    func brokenItems() throws {
        let feed = try JSONFeedParser.parse(try fixture("jsonfeed/broken-items.json"), url: nil)
        #expect(feed.items.map(\.uniqueID) == ["ok", "also-ok"])
        #expect(feed.items[1].published == nil)
        #expect(feed.warnings.count == 2)
        #expect(feed.warnings[0].hasPrefix("items[0]"))
        #expect(feed.warnings[1].hasPrefix("items[2]"))
    }

    @Test("JSON that is not a JSON Feed, or not JSON at all, is refused with a reason")
    func refusals() throws {
        #expect(throws: FeedParseError.notAFeed("the JSON has no JSON Feed \"version\"")) {
            try JSONFeedParser.parse(try fixture("jsonfeed/not-a-jsonfeed.json"), url: nil)
        }
        #expect(throws: FeedParseError.notAFeed("the JSON is not an object")) {
            try JSONFeedParser.parse(Data("[1,2]".utf8), url: nil)
        }
        do {
            _ = try JSONFeedParser.parse(
                Data(#"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"#.utf8), url: nil)
            Issue.record("a cut-off document should fail")
        } catch {
            guard case .malformed = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test("parsed items become articles of a feed with the same identity")
    func toArticle() throws {
        let item = try JSONFeedParser.parse(try fixture("jsonfeed/v1.1-basic.json"), url: documentURL).items[1]
        let article = item.article(feedID: 7)
        #expect(article.feedID == 7)
        #expect(article.uniqueID == "1")
        #expect(article.externalID == "1")
        #expect(article.contentHTML == item.contentHTML)
        #expect(article.enclosures == item.enclosures)
    }
}

@Suite("JSON Feed 1.0 fixture")
struct JSONFeed10FixtureTests {
    @Test("JSON Feed 1.0: feed fields, author, url and external_url, content, dates, tags, attachments")
    func basic() throws {
        let feed = try FeedDocumentParser.parse(data: try fixture("jsonfeed/v1.0-basic.json"), url: nil)
        #expect(feed.format == .jsonFeed10)
        #expect(feed.title == "JSON Feed 1.0")
        #expect(feed.link == URL(string: "https://json10.example/"))
        #expect(feed.feedURL == URL(string: "https://json10.example/feed.json"))
        #expect(feed.description == "A 1.0 feed")
        #expect(feed.icon == URL(string: "https://json10.example/icon.png"))
        #expect(feed.authors == [Author(name: "Single Author", uri: "https://json10.example/about")])
        #expect(feed.items.map(\.uniqueID) == ["1", "2"])
        let first = feed.items[0]
        #expect(first.title == "Item one")
        #expect(first.link == URL(string: "https://json10.example/1"))
        #expect(first.externalLink == URL(string: "https://elsewhere.example/story"))
        #expect(first.contentHTML == "<p>Hello <b>world</b></p>")
        #expect(first.contentText == "Hello world")
        #expect(first.summary == "Hello")
        #expect(first.published == RFC3339.date(from: "2021-03-13T09:00:00Z"))
        #expect(first.updated == RFC3339.date(from: "2021-03-13T09:00:00Z"))
        #expect(first.categories == ["a", "b"])
        #expect(
            first.enclosures == [
                Enclosure(url: URL(string: "https://json10.example/1.mp3")!, mimeType: "audio/mpeg", length: 42)
            ])
        #expect(feed.items[1].contentText == "Plain text only")
        #expect(feed.items[1].contentHTML == nil)
    }

    @Test("relative URLs resolve against home_page_url, else feed_url, else the document URL")
    func relativeToHomePage() throws {
        let mirror = URL(string: "https://cdn.example/mirror/feed.json")
        let feed = try JSONFeedParser.parse(try fixture("jsonfeed/relative-urls-home-page.json"), url: mirror)
        #expect(feed.link == URL(string: "https://home.example/blog/"))
        #expect(feed.icon == URL(string: "https://home.example/blog/icon.png"))
        #expect(feed.authors == [Author(name: "Jo", uri: "https://home.example/about")])
        let item = try #require(feed.items.first)
        #expect(item.link == URL(string: "https://home.example/blog/posts/1"))
        #expect(item.externalLink == URL(string: "https://home.example/elsewhere"))
        #expect(item.enclosures.map(\.url) == [URL(string: "https://home.example/blog/media/a.mp3")])
        #expect(item.authors == [Author(name: "Guest", uri: "https://home.example/blog/guest/")])
        #expect(
            item.contentHTML
                == #"<p><img src="https://home.example/blog/posts/pic.png"> <a href="https://home.example/x">x</a></p>"#
        )

        let withoutHome = #"""
            {"version": "https://jsonfeed.org/version/1.1", "feed_url": "https://feeds.example/a/feed.json",
             "items": [{"id": "1", "url": "posts/1"}]}
            """#
        let fallback = try JSONFeedParser.parse(Data(withoutHome.utf8), url: mirror)
        #expect(fallback.items.first?.link == URL(string: "https://feeds.example/a/posts/1"))
    }

    @Test("repeated attachments and authors are listed once; names and titles have their whitespace collapsed")
    func duplicates() throws {
        let json = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": " Two\n\tlines ",
             "items": [{"id": "1", "title": "A\n\t\ttitle",
               "authors": [{"name": "Jo\n\t\tBloggs"}, {"name": "Jo Bloggs"}],
               "attachments": [{"url": "https://e.example/a.mp3"},
                               {"url": "https://e.example/a.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 5}]}]}
            """#
        let feed = try JSONFeedParser.parse(Data(json.utf8), url: nil)
        #expect(feed.title == "Two lines")
        let item = try #require(feed.items.first)
        #expect(item.title == "A title")
        #expect(item.authors == [Author(name: "Jo Bloggs")])
        #expect(
            item.enclosures == [
                Enclosure(url: try #require(URL(string: "https://e.example/a.mp3")), mimeType: "audio/mpeg", length: 5)
            ])
    }
}
