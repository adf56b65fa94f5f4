import Foundation
import Testing

@testable import Models

@Suite("DatePresentation")
struct DatePresentationTests {
    private let october15 = Date(timeIntervalSince1970: 1_760_529_600)  // 2025-10-15 12:00 UTC
    private let utc = TimeZone(identifier: "UTC") ?? .current

    @Test(
        "one template, each locale's order and words (the seed's 15 October / October 15 / 15 oktober)",
        arguments: [("en_GB", "15 October"), ("en_US", "October 15"), ("nl", "15 oktober")])
    func localizedTemplates(locale: String, expected: String) {
        let presentation = DatePresentation(locale: Locale(identifier: locale), timeZone: utc)
        #expect(presentation.dayAndMonth(october15) == expected)
    }

    @Test("the time zone decides the day")
    func timeZoneDecidesTheDay() throws {
        let late = Date(timeIntervalSince1970: 1_760_572_800 - 60)  // 2025-10-15 23:59 UTC
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(
            DatePresentation(locale: Locale(identifier: "en_GB"), timeZone: tokyo).dayAndMonth(late) == "16 October")
    }

    @Test("relative dates for lists, in the locale's words, either way within a week")
    func relativeDates() {
        let presentation = DatePresentation(locale: Locale(identifier: "en_GB"), timeZone: utc)
        let now = october15
        #expect(presentation.relative(now.addingTimeInterval(-30), now: now) == "now")
        #expect(presentation.relative(now.addingTimeInterval(-5 * 60), now: now) == "5 min ago")
        #expect(presentation.relative(now.addingTimeInterval(-3 * 3600 - 59), now: now) == "3 hr ago")
        #expect(presentation.relative(now.addingTimeInterval(-2 * 86_400), now: now) == "2 days ago")
        #expect(presentation.relative(now.addingTimeInterval(3 * 86_400), now: now) == "in 3 days")
        #expect(presentation.relative(now.addingTimeInterval(-30 * 86_400), now: now) == "15 Sep 2025")
        let words = ["de_DE": "vor 2 Tagen", "fr_FR": "il y a 2 j", "nl_NL": "2 dgn geleden", "ja_JP": "2 日前"]
        for (identifier, expected) in words {
            let local = DatePresentation(locale: Locale(identifier: identifier), timeZone: utc)
            let text = local.relative(now.addingTimeInterval(-2 * 86_400), now: now)
            // French spaces its words with no-break spaces.
            #expect(
                text.replacingOccurrences(of: "\u{A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
                    == expected)
        }
    }

    @Test("excerpts cut at a word, on one line")
    func excerpts() {
        #expect(DatePresentation.excerpt("one two\nthree  four", limit: 13) == "one two three…")
        #expect(DatePresentation.excerpt("short", limit: 13) == "short")
        #expect(DatePresentation.excerpt("unbreakableword", limit: 5) == "unbr…")
    }
}
