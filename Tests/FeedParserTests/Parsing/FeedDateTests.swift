import FeedParser
import Foundation
import Testing

@Suite("Feed dates")
struct FeedDateTests {
    /// 2021-03-13T09:00:00Z
    let reference = Date(timeIntervalSince1970: 1_615_626_000)

    @Test(
        "reads RFC 822 and its broken variants",
        arguments: [
            "Sat, 13 Mar 2021 09:00:00 GMT", "13 Mar 2021 09:00:00 GMT", "Saturday, 13 Mar 2021 09:00:00 GMT",
            "Sat, 13 Mar 21 09:00:00 GMT", "Sat, 13 Mar 2021 09:00 GMT", "Sat,  13  Mar  2021  09:00:00  GMT",
            "Tues, 13 Mar 2021 09:00:00 GMT", "Sat, 13 March 2021 09:00:00 GMT", "sat, 13 mar 2021 09:00:00 gmt",
            "Sat, 13 Mar 2021 04:00:00 EST", "Sat, 13 Mar 2021 01:00:00 PST", "Sat, 13 Mar 2021 02:00:00 PDT",
            "Sat, 13 Mar 2021 14:30:00 +0530", "Sat, 13 Mar 2021 01:00:00 -08:00", "Sat, 13 Mar 2021 09:00:00 Z",
            "Sat, 13 Mar 2021 09:00:00 UT", "Sat, 13 Mar 2021 09:00:00", "Sat, 13-Mar-2021 09:00:00 GMT",
            "Sat, 13 Mar 2021 09:00:00.000 GMT", " Sat, 13 Mar 2021 09:00:00 GMT",
        ])
    func rfc822(text: String) {
        #expect(FeedDate.date(from: text) == reference)
    }

    @Test(
        "reads RFC 3339 through the same entry point",
        arguments: [
            "2021-03-13T09:00:00Z", "2021-03-13T10:00:00+01:00", "2021-03-13T09:00:00", "\n  2021-03-13T09:00:00Z",
        ])
    func rfc3339(text: String) {
        #expect(FeedDate.date(from: text) == reference)
    }

    @Test(
        "12-hour times and zone abbreviations beyond RFC 822's",
        arguments: [
            "Sat, 13 Mar 2021 9:00 AM GMT", "Sat, 13 Mar 2021 6:00:00 PM JST", "Mar 13, 2021 02:30 PM IST",
            "Sat, 13 Mar 2021 10:00:00 CET", "Sat, 13 Mar 2021 20:00:00 AEDT", "2021/3/13 9:00:00",
            "2021/03/13 18:00 KST", "2021.03.13 09:00:00 UT", "2021-3-13T09:00Z",
        ])
    func zonesAndClocks(text: String) {
        #expect(FeedDate.date(from: text) == reference)
    }

    @Test("a one-digit day and a date without time work")
    func shortForms() {
        #expect(FeedDate.date(from: "Mon, 1 Mar 2021 00:00:00 GMT") == Date(timeIntervalSince1970: 1_614_556_800))
        #expect(FeedDate.date(from: "1 Mar 2021") == Date(timeIntervalSince1970: 1_614_556_800))
    }

    @Test("two-digit years pivot at 50", arguments: [("01 Jan 49", 2049), ("01 Jan 50", 1950), ("01 Jan 99", 1999)])
    func twoDigitYears(text: String, year: Int) throws {
        let date = try #require(FeedDate.date(from: text))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        #expect(calendar.component(.year, from: date) == year)
    }

    @Test(
        "rejects what is not a date",
        arguments: [
            "", "yesterday", "Sat, 32 Mar 2021 09:00:00 GMT", "Sat, 13 Foo 2021 09:00:00 GMT", "31 Feb 2021",
            "Sat, 13 Mar 2021 25:00:00 GMT", "Sat, 13 Mar 2021 09:00:00 +5",
        ])
    func rejects(text: String) {
        #expect(FeedDate.date(from: text) == nil)
    }
}
