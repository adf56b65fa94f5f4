import Foundation
import Models
import Testing

@testable import FeedParser

/// JSON Feeds read where the best readers read them: a `version` that is not the
/// specification's URL, trailing commas; their images kept and made absolute.
@Suite("JSON Feed, read liberally")
struct JSONFeedLiberalTests {
    @Test(
        "a version that is not the specification's URL, or none, is read with a warning when there are items",
        arguments: [#""version": "1.1","#, #""version": "https://jsonfeed.org/","#, #""version": 1,"#, ""])
    func version(member: String) throws {
        let feed = try parseDocument(
            #"{\#(member) "title": "Odd version", "items": [{"id": "1", "title": "One"}]}"#)
        #expect(feed.title == "Odd version")
        #expect(feed.items.map(\.title) == ["One"])
        #expect(feed.warnings.count == 1)
        #expect(feed.warnings.first?.contains("\"version\"") == true)
    }

    @Test(
        "titles and names with HTML in them read as RSS titles do: entities decoded, tags dropped; AT&T and a < b kept")
    func htmlInTitles() throws {
        let feed = try parseDocument(
            #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "Bl&aring;b&aelig;r &amp; co",
             "authors": [{"name": "Jos&eacute;"}],
             "items": [{"id": "1", "title": "&rarr; Caf&eacute; <b>bold</b>", "content_html": "<p>&Aring;</p>"},
                       {"id": "2", "title": "AT&T says a < b"}]}
            """#)
        #expect(feed.title == "Blåbær & co")
        #expect(feed.authors.first?.name == "José")
        #expect(feed.items.map(\.title) == ["→ Café bold", "AT&T says a < b"])
        #expect(feed.items.first?.contentHTML == "<p>&Aring;</p>")
    }

    @Test("a version \"1\" is JSON Feed 1.0; without usable items it is no feed")
    func versionEdges() throws {
        #expect(try parseDocument(#"{"version": "1", "items": [{"id": "a"}]}"#).format == .jsonFeed10)
        #expect(throws: FeedParseError.self) { try parseDocument(#"{"version": "2.0", "items": []}"#) }
        #expect(throws: FeedParseError.self) { try parseDocument(#"{"version": "2.0", "items": [{"name": "x"}]}"#) }
        #expect(throws: FeedParseError.self) { try parseFixture("jsonfeed/not-a-jsonfeed.json") }
    }

    @Test("trailing commas in objects and arrays are read, with one warning")
    func trailingCommas() throws {
        let feed = try parseDocument(
            """
            {"version": "https://jsonfeed.org/version/1.1", "title": "Commas",
             "items": [{"id": "1", "title": "One", "tags": ["a", "b",],}, {"id": "2",},],}
            """)
        #expect(feed.items.map(\.id) == ["1", "2"])
        #expect(feed.items.first?.categories == ["a", "b"])
        #expect(feed.warnings.count == 1)
        #expect(feed.warnings.first?.contains("5 objects or arrays") == true)
    }

    @Test("a comma alone, or two, is still an error")
    func commasThatAreErrors() {
        for text in [#"{"version": "https://jsonfeed.org/version/1.1", "items": [,]}"#, #"{"a": 1,,}"#, "[1,,]", "{,}"]
        {
            #expect(throws: FeedParseError.self, "\(text)") { try parseDocument(text) }
        }
    }

    @Test("image and banner_image, icon and favicon are kept, resolved against home_page_url")
    func images() throws {
        let feed = try parseDocument(
            """
            {"version": "https://jsonfeed.org/version/1.1", "home_page_url": "https://json-images.example/blog/",
             "icon": "icon-512.png", "favicon": "/favicon.ico",
             "items": [{"id": "1", "image": "img/1.jpg", "banner_image": "https://cdn.example/b1.jpg"},
                       {"id": "2", "banner_image": "b2.jpg"}, {"id": "3"}]}
            """, url: "https://json-images.example/feed.json")
        #expect(feed.icon == URL(string: "https://json-images.example/blog/icon-512.png"))
        #expect(feed.image == URL(string: "https://json-images.example/blog/icon-512.png"))
        #expect(
            feed.items.map(\.image) == [
                URL(string: "https://json-images.example/blog/img/1.jpg"),
                URL(string: "https://json-images.example/blog/b2.jpg"), nil,
            ])
        #expect(
            feed.items.map(\.bannerImage) == [
                URL(string: "https://cdn.example/b1.jpg"), URL(string: "https://json-images.example/blog/b2.jpg"), nil,
            ])
        let faviconOnly = try parseDocument(
            #"{"version": "https://jsonfeed.org/version/1", "favicon": "/favicon.ico", "items": []}"#,
            url: "https://json-images.example/feed.json")
        #expect(faviconOnly.icon == URL(string: "https://json-images.example/favicon.ico"))
    }
}
