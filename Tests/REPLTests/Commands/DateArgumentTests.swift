import Foundation
import Testing

@testable import REPL

/// A Gregorian calendar in the time zone with this identifier.
private func calendar(_ zone: String) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
    return calendar
}

/// The instant a local `YYYY-MM-DDTHH:MM` (or `YYYY-MM-DD`, midnight) names in `zone`.
private func instant(_ text: String, in zone: String) -> Date {
    let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
    let components = DateComponents(
        year: parts[0], month: parts[1], day: parts[2], hour: parts.count > 3 ? parts[3] : 0,
        minute: parts.count > 4 ? parts[4] : 0)
    return calendar(zone).date(from: components) ?? .distantPast
}

/// Sunday 2026-11-22, 12:00 UTC: Monday 01:00 in Auckland, Sunday 04:00 in Los Angeles.
private let noon = instant("2026-11-22T12:00", in: "UTC")

@Suite("Date arguments")
struct DateArgumentTests {
    func parse(_ text: String, zone: String = "Europe/Berlin", now: Date = noon) throws -> Date {
        try DateArgument.parse(text, now: now, calendar: calendar(zone))
    }

    @Test("today, tomorrow and yesterday are the start of those days in the calendar's time zone")
    func keywords() throws {
        #expect(try parse("today") == instant("2026-11-22", in: "Europe/Berlin"))
        #expect(try parse(" Tomorrow ") == instant("2026-11-23", in: "Europe/Berlin"))
        #expect(try parse("YESTERDAY") == instant("2026-11-21", in: "Europe/Berlin"))
        // At 12:00 UTC it is already Monday in Auckland and still Sunday in Los Angeles.
        #expect(try parse("today", zone: "Pacific/Auckland") == instant("2026-11-23", in: "Pacific/Auckland"))
        #expect(try parse("today", zone: "America/Los_Angeles") == instant("2026-11-22", in: "America/Los_Angeles"))
    }

    @Test("YYYY-MM-DD is local midnight and YYYY-MM-DDTHH:MM a local time")
    func absolute() throws {
        #expect(try parse("2026-02-28") == instant("2026-02-28", in: "Europe/Berlin"))
        #expect(try parse("2028-02-29") == instant("2028-02-29", in: "Europe/Berlin"))
        #expect(try parse("2026-11-21T09:30") == instant("2026-11-21T09:30", in: "Europe/Berlin"))
        #expect(try parse("2026-11-21t23:59", zone: "Asia/Tokyo") == instant("2026-11-21T23:59", in: "Asia/Tokyo"))
        #expect(try parse("2026-3-5") == instant("2026-03-05", in: "Europe/Berlin"))
    }

    @Test("offsets count days, weeks, months and years from the start of today")
    func relative() throws {
        #expect(try parse("+3d") == instant("2026-11-25", in: "Europe/Berlin"))
        #expect(try parse("-2w") == instant("2026-11-08", in: "Europe/Berlin"))
        #expect(try parse("+1m") == instant("2026-12-22", in: "Europe/Berlin"))
        #expect(try parse("+1y") == instant("2027-11-22", in: "Europe/Berlin"))
        #expect(try parse("-1d") == parse("yesterday"))
        #expect(try parse("+0d") == parse("today"))
        #expect(try parse("+2W") == instant("2026-12-06", in: "Europe/Berlin"))
    }

    @Test("a month after January 31 is the last day of February")
    func monthEnd() throws {
        let january31 = instant("2027-01-31T10:00", in: "Europe/Berlin")
        #expect(try parse("+1m", now: january31) == instant("2027-02-28", in: "Europe/Berlin"))
        #expect(
            try parse("+1y", now: instant("2028-02-29", in: "Europe/Berlin"))
                == instant("2029-02-28", in: "Europe/Berlin"))
    }

    @Test(
        "month and year offsets count back as well as forward, clamped to the end of a shorter month",
        arguments: [
            ("2026-11-22T12:00", "-1m", "2026-10-22"), ("2026-11-22T12:00", "+1m", "2026-12-22"),
            ("2026-11-22T12:00", "-11m", "2025-12-22"), ("2026-11-22T12:00", "-13m", "2025-10-22"),
            ("2026-11-22T12:00", "+14m", "2028-01-22"), ("2026-11-22T12:00", "-1y", "2025-11-22"),
            ("2026-11-22T12:00", "+2y", "2028-11-22"), ("2026-11-22T12:00", "-12m", "2025-11-22"),
            ("2027-01-15T10:00", "-1m", "2026-12-15"), ("2026-12-15T10:00", "+1m", "2027-01-15"),
            ("2027-03-31T10:00", "-1m", "2027-02-28"), ("2028-03-31T10:00", "-1m", "2028-02-29"),
            ("2027-03-31T10:00", "+1m", "2027-04-30"), ("2027-05-31T10:00", "-1m", "2027-04-30"),
            ("2027-01-31T10:00", "-2m", "2026-11-30"), ("2028-02-29T10:00", "-1y", "2027-02-28"),
            ("2028-02-29T10:00", "-4y", "2024-02-29"),
        ])
    func signedMonthsAndYears(now: String, offset: String, day: String) throws {
        #expect(try parse(offset, now: instant(now, in: "Europe/Berlin")) == instant(day, in: "Europe/Berlin"))
    }

    @Test("offsets across a daylight-saving change stay at local midnight")
    func daylightSaving() throws {
        // Clocks go back in Berlin on 2026-10-25.
        let before = instant("2026-10-24T12:00", in: "Europe/Berlin")
        #expect(try parse("+2d", now: before) == instant("2026-10-26", in: "Europe/Berlin"))
        // 02:30 does not exist on 2026-03-29 in Berlin (02:00 jumps to 03:00): 03:30 CEST.
        #expect(try parse("2026-03-29T02:30") == instant("2026-03-29T01:30", in: "UTC"))
    }

    @Test(
        "input that is not a date names what is wrong",
        arguments: [
            ("next week", DateArgumentError.accepted),
            ("", DateArgumentError.accepted),
            ("+3x", "the unit \"x\" is not one of d (days), w (weeks), m (months), y (years)"),
            ("+d", DateArgumentError.accepted),
            ("++3d", DateArgumentError.accepted),
            ("+10000d", "an offset is at most 9999 units"),
            ("2026-13-01", "there is no month 13 (01 to 12)"),
            ("2026-02-30", "month 02 of 2026 has 28 days, not 30"),
            ("2026-04-31", "month 04 of 2026 has 30 days, not 31"),
            ("0000-01-01", "there is no year 0"),
            ("26-11-21", DateArgumentError.accepted),
            ("2026/11/21", DateArgumentError.accepted),
            ("2026-11-21T24:00", "there is no hour 24 (00 to 23)"),
            ("2026-11-21T09:60", "there is no minute 60 (00 to 59)"),
            ("2026-11-21T9", "the time must be HH:MM, like 2026-11-21T09:30"),
            ("2026-11-21T+9:00", "the time must be HH:MM, like 2026-11-21T09:30"),
        ])
    func errors(input: String, reason: String) {
        #expect(throws: DateArgumentError(input: input, reason: reason)) { try parse(input) }
    }

    @Test("the error is one line quoting the input")
    func errorMessage() {
        let error = DateArgumentError(input: "2026-02-30", reason: "month 02 of 2026 has 28 days, not 30")
        #expect(error.description == "\"2026-02-30\" is not a date: month 02 of 2026 has 28 days, not 30")
        #expect(error.localizedDescription == error.description)
    }
}
