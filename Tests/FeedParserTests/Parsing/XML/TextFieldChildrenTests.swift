import Foundation
import Models
import Testing

@testable import FeedParser

/// A field whose value is its text keeps the text of the elements inside it, as RSS titles and
/// descriptions keep their markup: `<guid><b>id</b></guid>` is `id`, not nothing.
@Suite("Text fields holding child elements")
struct TextFieldChildrenTests {
    @Test("RSS author, managingEditor, guid, category, link, dates, language, dc and itunes fields")
    func rss() throws {
        let feed = try parseFixture("rss/text-fields-with-children.xml")
        #expect(feed.title == "Children kept")
        #expect(feed.link == URL(string: "https://children.example/"))
        #expect(feed.language == "en-gb")
        #expect(feed.authors == [Author(name: "The Editor", email: "editor@children.example")])
        #expect(feed.updated == RFC3339.date(from: "2021-03-13T09:00:00Z"))
        let first = try #require(feed.items.first)
        #expect(first.id == "guid-1")
        #expect(first.authors == [Author(name: "Item Author")])
        #expect(first.categories == ["Swift", "plain"])
        #expect(first.link == URL(string: "https://children.example/one"))
        #expect(first.published == RFC3339.date(from: "2021-03-12T08:00:00Z"))
        #expect(first.contentHTML == "Desc <em>kept</em>")
        #expect(feed.items[1].authors == [Author(name: "Dee Creator")])
        #expect(feed.items[1].categories == ["Topic"])
        #expect(feed.items[2].authors == [Author(name: "Pod Caster")])
    }

    @Test("Atom id, icon, dates and a person's name, email and uri")
    func atom() throws {
        let feed = try parseFixture("atom/text-fields-with-children.xml")
        #expect(feed.icon == URL(string: "https://atom-children.example/icon.png"))
        #expect(feed.updated == RFC3339.date(from: "2021-03-13T09:00:00Z"))
        let entry = try #require(feed.items.first)
        #expect(entry.id == "urn:entry:1")
        #expect(entry.published == RFC3339.date(from: "2021-03-12T09:00:00Z"))
        #expect(
            entry.authors == [
                Author(name: "Ann Author", email: "ann@atom-children.example", uri: "https://atom-children.example/ann")
            ])
    }
}
