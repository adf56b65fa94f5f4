import Foundation
import Models
import Testing

@testable import FeedParser

@Suite("Dates in RSS and Atom documents")
struct XMLDateFixtureTests {
    /// 2021-03-13T09:00:00Z
    let reference = Date(timeIntervalSince1970: 1_615_626_000)

    @Test("every broken pubDate variant in the fixture reads as the same instant")
    func brokenVariants() throws {
        let feed = try parseFixture("rss/dates-broken-variants.xml")
        #expect(feed.items.count == 20)
        for item in feed.items {
            #expect(item.published == reference, "\(item.id ?? "?")")
        }
    }

    @Test("unreadable dates are left out, never guessed")
    func unreadable() throws {
        let feed = try parseFixture("rss/dates-unreadable.xml")
        #expect(feed.items.map(\.published) == [nil, nil, nil])
        #expect(feed.items.count == 3)
    }

    @Test("dc:date, dcterms:modified and dcterms:created; pubDate wins over a later dc:date")
    func dublinCore() throws {
        let feed = try parseFixture("rss/dublin-core-dates.xml")
        #expect(feed.updated == reference)
        #expect(feed.language == "de-DE")
        let first = feed.items[0]
        #expect(first.published == reference)
        #expect(first.updated == RFC3339.date(from: "2021-03-14T09:00:00Z"))
        #expect(first.categories == ["Politics", "Science"])
        #expect(first.authors == [Author(name: "Ada"), Author(name: "Grace")])
        #expect(feed.items[1].published == reference)
        #expect(feed.items[2].published == reference)
    }

    @Test("Atom published and updated, with fractions, offsets, lower-case t/z, no zone or seconds, a bare date")
    func atomDates() throws {
        let feed = try parseFixture("atom/atom-dates.xml")
        #expect(feed.updated == reference.addingTimeInterval(0.5))
        #expect(feed.items[0].published == reference)
        #expect(feed.items[0].updated == reference)
        #expect(feed.items[1].published == nil)
        #expect(feed.items[1].updated == reference)
        #expect(feed.items[2].updated == reference)
        #expect(feed.items[3].published == RFC3339.date(from: "2021-03-13T00:00:00Z"))
    }

    @Test("dates written 2020/1/10 14:33:00, with or without padding, seconds, time and zone")
    func slashDates() throws {
        let feed = try parseFixture("rss/dates-slashes.xml")
        let instant = RFC3339.date(from: "2020-01-10T14:33:00Z")
        #expect(feed.items.count == 11)
        for item in feed.items.dropLast() {
            #expect(item.published == instant, "\(item.id ?? "?")")
        }
        #expect(feed.items.last?.published == RFC3339.date(from: "2020-01-10T00:00:00Z"))
    }

    @Test("zone abbreviations beyond RFC 822's are read at their offsets; an unknown one is UTC, with a warning")
    func zoneAbbreviations() throws {
        let feed = try parseFixture("rss/dates-zone-abbreviations.xml")
        #expect(feed.items.count == 36)
        for item in feed.items {
            #expect(item.published == reference, "\(item.id ?? "?")")
        }
        #expect(feed.warnings.count == 1)
        #expect(feed.warnings.first?.contains("XYZT") == true)
    }
}
