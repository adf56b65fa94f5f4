import Foundation
import Models
import Testing

@Suite("RFC 3339 dates")
struct RFC3339Tests {
    /// 2021-03-13T09:00:00Z
    let reference = Date(timeIntervalSince1970: 1_615_626_000)

    @Test(
        "reads the forms feeds and APIs publish",
        arguments: [
            "2021-03-13T09:00:00Z", "2021-03-13t09:00:00z", "2021-03-13 09:00:00Z", "2021-03-13T09:00Z",
            "2021-03-13T10:00:00+01:00", "2021-03-13T04:00:00-0500", "2021-03-13T14:30:00+05:30",
            "2021-03-13T09:00:00", "  2021-03-13T09:00:00Z ", "2021-03-13T11:00:00+02",
        ])
    func parses(text: String) {
        #expect(RFC3339.date(from: text) == reference)
    }

    @Test("keeps fractions of a second")
    func fractions() throws {
        let date = try #require(RFC3339.date(from: "2021-03-13T09:00:00.250Z"))
        #expect(abs(date.timeIntervalSince(reference) - 0.25) < 0.000_1)
    }

    @Test("a bare date is midnight UTC")
    func bareDate() {
        #expect(RFC3339.date(from: "2021-03-13") == Date(timeIntervalSince1970: 1_615_593_600))
    }

    @Test(
        "rejects what is not a timestamp",
        arguments: [
            "", "yesterday", "2021-13-01", "2021-02-29", "2021-03-13T25:00:00Z", "2021-03-13T09:00:00X",
            "13 Mar 2021", "2021-03-13T09", "2021-03-13T09:00:00Z trailing",
        ])
    func rejects(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test("leap days and dates before 1970 are exact")
    func calendarEdges() {
        #expect(RFC3339.date(from: "2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(RFC3339.date(from: "1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        #expect(RFC3339.date(from: "2000-03-01T00:00:00Z") == Date(timeIntervalSince1970: 951_868_800))
    }

    @Test("formats UTC with whole seconds, and round-trips")
    func formatting() {
        #expect(RFC3339.string(from: reference) == "2021-03-13T09:00:00Z")
        #expect(RFC3339.string(from: reference.addingTimeInterval(0.9)) == "2021-03-13T09:00:00Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        for seconds in stride(from: -2_000_000_000, to: 4_000_000_000, by: 123_456_789) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(RFC3339.date(from: RFC3339.string(from: date)) == date)
        }
    }

    @Test("agrees with ISO8601DateFormatter")
    func agreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        for seconds in stride(from: 0, to: 3_000_000_000, by: 98_765_432) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(RFC3339.string(from: date) == formatter.string(from: date))
        }
    }
}
