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
private func instant(_ text: String, in zone: String = "Europe/Berlin") -> Date {
    let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
    let components = DateComponents(
        year: parts[0], month: parts[1], day: parts[2], hour: parts.count > 3 ? parts[3] : 0,
        minute: parts.count > 4 ? parts[4] : 0)
    return calendar(zone).date(from: components) ?? .distantPast
}

/// Friday 2026-11-27, 12:00 UTC (13:00 in Berlin).
private let friday = instant("2026-11-27T12:00", in: "UTC")

/// Day words (`friday`, `next monday`, `in 3 days`, `end of month`) and times after a day.
@Suite("Date words")
struct DateWordTests {
    func parse(_ text: String, zone: String = "Europe/Berlin", now: Date = friday) throws -> Date {
        try DateArgument.parse(text, now: now, calendar: calendar(zone))
    }

    func moment(_ text: String, zone: String = "Europe/Berlin", now: Date = friday) throws -> DueMoment {
        try DateArgument.moment(text, now: now, calendar: calendar(zone))
    }

    @Test(
        "a weekday is the first such day after today, never today; next friday is the same day",
        arguments: [
            ("friday", "2026-12-04"), ("fri", "2026-12-04"), ("Next Friday", "2026-12-04"), ("FRIDAY", "2026-12-04"),
            ("saturday", "2026-11-28"), ("sun", "2026-11-29"), ("monday", "2026-11-30"), ("next mon", "2026-11-30"),
            ("tues", "2026-12-01"), ("wed", "2026-12-02"), ("weds", "2026-12-02"), ("thursday", "2026-12-03"),
            ("thurs", "2026-12-03"), ("next thu", "2026-12-03"),
        ])
    func weekdays(text: String, day: String) throws {
        #expect(try parse(text) == instant(day))
    }

    @Test("weekdays count from today in the calendar's time zone")
    func weekdaysByZone() throws {
        // 12:00 UTC on Sunday 2026-11-22 is already Monday in Auckland and still Sunday in Los Angeles.
        let sundayNoon = instant("2026-11-22T12:00", in: "UTC")
        #expect(
            try parse("monday", zone: "Pacific/Auckland", now: sundayNoon)
                == instant("2026-11-30", in: "Pacific/Auckland"))
        #expect(
            try parse("monday", zone: "America/Los_Angeles", now: sundayNoon)
                == instant("2026-11-23", in: "America/Los_Angeles"))
    }

    @Test(
        "in N days, weeks, months or years is the offset from today; in 0 days is today",
        arguments: [
            ("in 3 days", "2026-11-30"), ("in 1 day", "2026-11-28"), ("in 2 weeks", "2026-12-11"),
            ("in a week", "2026-12-04"), ("in one week", "2026-12-04"), ("in 1 month", "2026-12-27"),
            ("in 3 Months", "2027-02-27"), ("in a year", "2027-11-27"), ("in 0 days", "2026-11-27"),
        ])
    func inUnits(text: String, day: String) throws {
        #expect(try parse(text) == instant(day))
    }

    @Test("in a month from January 31 is the end of February; in a year from February 29 is February 28")
    func inUnitsClamped() throws {
        #expect(try parse("in 1 month", now: instant("2028-01-31T10:00")) == instant("2028-02-29"))
        #expect(try parse("in a year", now: instant("2028-02-29T10:00")) == instant("2029-02-28"))
    }

    @Test(
        "end of week is the coming Sunday (today on a Sunday), end of month and of year their last day",
        arguments: [
            // (now, text, day)
            ("2026-11-27T10:00", "end of week", "2026-11-29"), ("2026-11-29T23:00", "end of week", "2026-11-29"),
            ("2026-11-30T00:30", "eow", "2026-12-06"), ("2026-11-27T10:00", "end of month", "2026-11-30"),
            ("2026-11-30T22:00", "EOM", "2026-11-30"), ("2026-11-27T10:00", "end of the month", "2026-11-30"),
            ("2028-02-10T10:00", "eom", "2028-02-29"), ("2027-02-10T10:00", "end of month", "2027-02-28"),
            ("2026-10-20T10:00", "end of month", "2026-10-31"), ("2026-11-27T10:00", "end of year", "2026-12-31"),
            ("2026-12-31T18:00", "eoy", "2026-12-31"),
        ])
    func ends(now: String, text: String, day: String) throws {
        #expect(try parse(text, now: instant(now)) == instant(day))
    }

    @Test(
        "a time after a day word is a local time; the moment says a time was given",
        arguments: [
            ("friday 18:00", "2026-12-04T18:00"), ("tomorrow 9:30", "2026-11-28T09:30"),
            ("today 18:00", "2026-11-27T18:00"), ("2026-11-27 09:30", "2026-11-27T09:30"),
            ("next monday 7:05", "2026-11-30T07:05"), ("friday 9am", "2026-12-04T09:00"),
            ("friday 6pm", "2026-12-04T18:00"), ("friday 6:30PM", "2026-12-04T18:30"),
            ("friday 6 pm", "2026-12-04T18:00"), ("tomorrow 12am", "2026-11-28T00:00"),
            ("tomorrow 12pm", "2026-11-28T12:00"), ("in 2 days 07:45", "2026-11-29T07:45"),
            ("+1d 23:59", "2026-11-28T23:59"), ("end of month 20:00", "2026-11-30T20:00"),
        ])
    func times(text: String, local: String) throws {
        #expect(try moment(text) == DueMoment(date: instant(local), hasTime: true))
    }

    @Test("without a time the moment is the start of the day and says so; YYYY-MM-DDTHH:MM has a time")
    func momentWithoutTime() throws {
        #expect(try moment("friday") == DueMoment(date: instant("2026-12-04"), hasTime: false))
        #expect(try moment("+3d") == DueMoment(date: instant("2026-11-30"), hasTime: false))
        #expect(try moment("2026-11-21") == DueMoment(date: instant("2026-11-21"), hasTime: false))
        #expect(
            try moment("2026-11-21T09:30") == DueMoment(date: instant("2026-11-21T09:30"), hasTime: true))
        #expect(try parse("friday 18:00") == moment("friday 18:00").date)
    }

    @Test("a time a daylight-saving change skips becomes the next that exists; a day's start stays midnight")
    func daylightSaving() throws {
        let berlinFriday = instant("2026-03-27T12:00")
        // 02:30 does not exist on Sunday 2026-03-29 in Berlin: 03:30 CEST, 01:30 UTC.
        #expect(try parse("sunday 2:30", now: berlinFriday) == instant("2026-03-29T01:30", in: "UTC"))
        #expect(try parse("sunday 8:00", now: berlinFriday) == instant("2026-03-29T06:00", in: "UTC"))
        // New York falls back on Sunday 2026-11-01: its day still starts at local midnight.
        let newYorkFriday = instant("2026-10-30T12:00", in: "America/New_York")
        #expect(
            try parse("sunday", zone: "America/New_York", now: newYorkFriday)
                == instant("2026-11-01", in: "America/New_York"))
        #expect(
            try parse("sunday 18:00", zone: "America/New_York", now: newYorkFriday)
                == instant("2026-11-01T23:00", in: "UTC"))
    }

    @Test(
        "words that mean no date are refused, saying why",
        arguments: [
            ("fridday", "did you mean \"friday\"? " + DateArgumentError.accepted),
            ("tomorow", "did you mean \"tomorrow\"? " + DateArgumentError.accepted),
            ("in 3 fortnights", "\"fortnights\" is not a unit (days, weeks, months or years)"),
            ("in three days", "\"three\" is not a whole number; say in 3 days, in 2 weeks, in 1 month or in a year"),
            ("in days", "say in 3 days, in 2 weeks, in 1 month or in a year"),
            ("in 10000 days", "an offset is at most 9999 units"),
            ("friday 25:00", "there is no hour 25 (00 to 23)"),
            ("friday 9:60", "there is no minute 60 (00 to 59)"),
            ("friday 13pm", "there is no hour 13 on a 12-hour clock (1 to 12, then am or pm)"),
            ("friday 0am", "there is no hour 0 on a 12-hour clock (1 to 12, then am or pm)"),
            ("friday 9:5", "the time must be HH:MM (24-hour) or like 9am or 6:30pm"),
            ("friday 18:00:30", "the time must be HH:MM (24-hour) or like 9am or 6:30pm"),
            ("18:00", "a time needs a day before it, like today 18:00"),
            ("6 pm", "a time needs a day before it, like today 6pm"),
            ("2026-11-27T09:30 10:00", "it gives two times; give the day and one time"),
            ("end of the world", "there is no end of \"world\": say end of week, end of month or end of year"),
            ("this friday", DateArgumentError.accepted),
            ("next", DateArgumentError.accepted),
            ("friday week", DateArgumentError.accepted),
        ])
    func refused(input: String, reason: String) {
        #expect(throws: DateArgumentError(input: input, reason: reason)) { try parse(input) }
    }

    @Test("the accepted forms are listed when nothing is close")
    func acceptedForms() {
        for form in ["friday", "next friday", "in 3 days", "end of month (eom)", "friday 18:00", "+3d"] {
            #expect(DateArgumentError.accepted.contains(form), "\(form)")
        }
    }
}
