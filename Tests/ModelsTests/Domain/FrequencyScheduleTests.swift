import Foundation
import Models
import Testing

/// Next due dates and occurrences of frequencies with rule parts (RFC 5545 `BYDAY`,
/// `BYMONTHDAY`, `BYSETPOS`).
@Suite("Frequency schedules")
struct FrequencyScheduleTests {
    let utc = calendar("UTC")

    /// The next due date of `rule` anchored on `anchor`, after `due` done at `done` (days in `utc`).
    func next(_ rule: String, anchor: String, due: String? = nil, done: String, in calendar: Calendar? = nil) throws
        -> Date
    {
        let calendar = calendar ?? utc
        let anchorDate = date(anchor, in: calendar)
        return try Frequency(rrule: rule).nextDueDate(
            from: anchorDate, after: due.map { date($0, in: calendar) } ?? anchorDate,
            completedAt: date(done, in: calendar), calendar: calendar)
    }

    @Test("every 2 weeks on Monday and Thursday: the listed days of every other week from the anchor's")
    func biweeklyTwoDays() throws {
        let rule = "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"
        // Anchored on Monday 2026-11-30: Nov 30, Dec 3, then Dec 14, 17, 28, 31.
        #expect(try next(rule, anchor: "2026-11-30", done: "2026-11-30T20:00") == date("2026-12-03", in: utc))
        #expect(
            try next(rule, anchor: "2026-11-30", due: "2026-12-03", done: "2026-12-03") == date("2026-12-14", in: utc))
        // Done early (before its day): the next one is still after the due day.
        #expect(
            try next(rule, anchor: "2026-11-30", due: "2026-12-03", done: "2026-12-01") == date("2026-12-14", in: utc))
        // Done late: Dec 14 and 17 are past, and on Dec 17 that day's one counts as done.
        #expect(
            try next(rule, anchor: "2026-11-30", due: "2026-12-03", done: "2026-12-20") == date("2026-12-28", in: utc))
        #expect(
            try next(rule, anchor: "2026-11-30", due: "2026-12-03", done: "2026-12-17") == date("2026-12-28", in: utc))
        // Across the year: Dec 31 (Thursday), then Jan 11 2027.
        #expect(
            try next(rule, anchor: "2026-11-30", due: "2026-12-31", done: "2026-12-31") == date("2027-01-11", in: utc))
        // Anchored on the Thursday, the Monday of its week is before it and not an occurrence.
        let fromThursday = try Frequency(rrule: rule).occurrences(
            from: date("2026-12-03", in: utc), through: date("2026-12-31", in: utc), calendar: utc, limit: 10)
        #expect(
            fromThursday
                == ["2026-12-03", "2026-12-14", "2026-12-17", "2026-12-28", "2026-12-31"].map { date($0, in: utc) })
    }

    @Test("every weekday: Friday's is followed by Monday's, Monday's by Tuesday's")
    func everyWeekday() throws {
        let rule = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        #expect(try next(rule, anchor: "2026-11-27", done: "2026-11-27") == date("2026-11-30", in: utc))
        #expect(
            try next(rule, anchor: "2026-11-27", due: "2026-11-30", done: "2026-11-30") == date("2026-12-01", in: utc))
        // Done on Saturday: Monday is next.
        #expect(try next(rule, anchor: "2026-11-27", done: "2026-11-28T10:00") == date("2026-11-30", in: utc))
    }

    @Test("every month on the last Friday, in months with four Fridays and with five")
    func lastFriday() throws {
        for rule in ["FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1"] {
            // January 2026 has five Fridays (the 30th is the last); February and March four.
            #expect(try next(rule, anchor: "2026-01-30", done: "2026-01-30") == date("2026-02-27", in: utc))
            #expect(
                try next(rule, anchor: "2026-01-30", due: "2026-02-27", done: "2026-02-27")
                    == date("2026-03-27", in: utc))
            // Done in the middle of April: April 24, then May 29 (five Fridays).
            #expect(
                try next(rule, anchor: "2026-01-30", due: "2026-03-27", done: "2026-04-25")
                    == date("2026-05-29", in: utc))
        }
    }

    @Test("every month on the 2nd Monday")
    func secondMonday() throws {
        let rule = "FREQ=MONTHLY;BYDAY=2MO"
        // December 2026 starts on a Tuesday (Mondays 7 and 14); January 2027 on a Friday (4 and 11).
        #expect(try next(rule, anchor: "2026-11-09", done: "2026-11-09") == date("2026-12-14", in: utc))
        #expect(
            try next(rule, anchor: "2026-11-09", due: "2026-12-14", done: "2026-12-14") == date("2027-01-11", in: utc))
    }

    @Test("the 31st skips months without one, as RFC 5545 says; the last day (-1) does not")
    func monthEnds() throws {
        let thirtyFirst = "FREQ=MONTHLY;BYMONTHDAY=31"
        #expect(try next(thirtyFirst, anchor: "2026-01-31", done: "2026-01-31") == date("2026-03-31", in: utc))
        #expect(
            try next(thirtyFirst, anchor: "2026-01-31", due: "2026-03-31", done: "2026-03-31")
                == date("2026-05-31", in: utc))
        #expect(
            try next(thirtyFirst, anchor: "2026-01-31", due: "2026-07-31", done: "2026-07-31")
                == date("2026-08-31", in: utc))
        let lastDay = "FREQ=MONTHLY;BYMONTHDAY=-1"
        #expect(try next(lastDay, anchor: "2026-01-31", done: "2026-01-31") == date("2026-02-28", in: utc))
        #expect(
            try next(lastDay, anchor: "2026-01-31", due: "2026-02-28", done: "2026-02-28")
                == date("2026-03-31", in: utc))
        #expect(
            try next(lastDay, anchor: "2026-01-31", due: "2026-03-31", done: "2026-03-31")
                == date("2026-04-30", in: utc))
        #expect(
            try next("FREQ=MONTHLY;BYMONTHDAY=15", anchor: "2026-11-15", done: "2026-11-20")
                == date("2026-12-15", in: utc))
    }

    @Test("leap years: the last day of February 2028 is the 29th; the 29th of February comes every four years")
    func leapYears() throws {
        #expect(
            try next("FREQ=MONTHLY;BYMONTHDAY=-1", anchor: "2028-01-31", done: "2028-01-31")
                == date("2028-02-29", in: utc))
        #expect(
            try next("FREQ=MONTHLY;BYMONTHDAY=29", anchor: "2027-01-29", done: "2027-01-29")
                == date("2027-03-29", in: utc))
        #expect(
            try next("FREQ=MONTHLY;BYMONTHDAY=29", anchor: "2028-01-29", done: "2028-01-29")
                == date("2028-02-29", in: utc))
        #expect(
            try next("FREQ=YEARLY;BYMONTHDAY=29", anchor: "2028-02-29", done: "2028-02-29")
                == date("2032-02-29", in: utc))
        #expect(
            try next("FREQ=YEARLY;BYMONTHDAY=-1", anchor: "2027-02-28", done: "2027-02-28")
                == date("2028-02-29", in: utc))
    }

    @Test("yearly rules fall in the anchor's month: the last Sunday of March")
    func yearly() throws {
        #expect(
            try next("FREQ=YEARLY;BYDAY=-1SU", anchor: "2026-03-29", done: "2026-03-29") == date("2027-03-28", in: utc))
        #expect(
            try next("FREQ=YEARLY;INTERVAL=2;BYMONTHDAY=1", anchor: "2026-03-01", done: "2026-05-01")
                == date("2028-03-01", in: utc))
    }

    @Test("the last weekday of the month: BYSETPOS=-1 of Monday to Friday")
    func lastWeekday() throws {
        let rule = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"
        // Jan 31 2026 is a Saturday, Feb 28 a Saturday, May 31 a Sunday, Aug 31 and Nov 30 Mondays.
        let expected = [
            "2026-01-30", "2026-02-27", "2026-03-31", "2026-04-30", "2026-05-29", "2026-06-30", "2026-07-31",
            "2026-08-31", "2026-09-30", "2026-10-30", "2026-11-30", "2026-12-31",
        ]
        let all = try Frequency(rrule: rule).occurrences(
            from: date("2026-01-30", in: utc), through: date("2026-12-31", in: utc), calendar: utc, limit: 100)
        #expect(all == expected.map { date($0, in: utc) })
        #expect(
            try next(rule, anchor: "2026-01-30", due: "2026-04-30", done: "2026-05-02") == date("2026-05-29", in: utc))
    }

    @Test("a daily rule with weekdays keeps its rhythm and skips the days not listed")
    func dailyFilter() throws {
        // Every day, Monday, Wednesday and Friday only.
        #expect(
            try next("FREQ=DAILY;BYDAY=MO,WE,FR", anchor: "2026-11-30", done: "2026-11-30")
                == date("2026-12-02", in: utc))
        // Every 3 days from Friday Nov 27 (Nov 30, Dec 3, Dec 6 …), weekends only: Sunday Dec 6.
        #expect(
            try next("FREQ=DAILY;INTERVAL=3;BYDAY=SA,SU", anchor: "2026-11-27", done: "2026-11-27")
                == date("2026-12-06", in: utc))
    }

    @Test(
        "daylight-saving changes keep the anchor's wall-clock time",
        arguments: [
            // (zone, rule, anchor, next): Europe springs forward on 2026-03-29 and falls back on
            // 2026-10-25; the US on 2026-03-08 and 2026-11-01.
            ("Europe/Berlin", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-03-26T08:00", "2026-03-30T08:00"),
            ("Europe/Berlin", "FREQ=MONTHLY;BYDAY=-1SU", "2026-09-27T08:00", "2026-10-25T08:00"),
            ("Europe/Berlin", "FREQ=MONTHLY;BYDAY=-1SU", "2026-02-22T00:00", "2026-03-29T00:00"),
            ("America/New_York", "FREQ=MONTHLY;BYDAY=2SU", "2026-02-08T09:00", "2026-03-08T09:00"),
            ("America/New_York", "FREQ=MONTHLY;BYDAY=1SU", "2026-10-04T09:00", "2026-11-01T09:00"),
            ("America/New_York", "FREQ=WEEKLY;BYDAY=SU,WE", "2026-10-28T00:00", "2026-11-01T00:00"),
        ])
    func daylightSaving(zone: String, rule: String, anchor: String, expected: String) throws {
        let local = calendar(zone)
        let next = try next(rule, anchor: anchor, done: anchor, in: local)
        #expect(next == date(expected, in: local))
        #expect(local.component(.hour, from: next) == local.component(.hour, from: date(anchor, in: local)))
    }

    @Test("days are the calendar's: done late on Sunday evening in Tokyo time is Monday there")
    func calendarDays() throws {
        let tokyo = calendar("Asia/Tokyo")
        let frequency = try Frequency(rrule: "FREQ=WEEKLY;BYDAY=MO,TH")
        let anchor = date("2026-11-26", in: tokyo)  // a Thursday
        // 16:00 UTC on Sunday Nov 29 is 01:00 on Monday Nov 30 in Tokyo: Monday's is done.
        let done = date("2026-11-29T16:00", in: utc)
        #expect(
            frequency.nextDueDate(from: anchor, after: anchor, completedAt: done, calendar: tokyo)
                == date("2026-12-03", in: tokyo))
    }

    @Test("a rule no day matches ends, falling back to its count and unit")
    func neverMatches() throws {
        // Every year in February on the 31st: there is none.
        let february = try Frequency(rrule: "FREQ=YEARLY;BYMONTHDAY=31")
        let anchor = date("2026-02-10", in: utc)
        #expect(
            february.nextDueDate(from: anchor, after: anchor, completedAt: anchor, calendar: utc)
                == date("2027-02-10", in: utc))
        #expect(
            february.occurrences(from: anchor, through: date("9999-12-31", in: utc), calendar: utc, limit: 5).isEmpty)
        // Every 7 days from a Tuesday, Mondays only.
        let mondays = try Frequency(rrule: "FREQ=DAILY;INTERVAL=7;BYDAY=MO")
        let tuesday = date("2026-12-01", in: utc)
        #expect(
            mondays.nextDueDate(from: tuesday, after: tuesday, completedAt: tuesday, calendar: utc)
                == date("2026-12-08", in: utc))
    }

    @Test("a chore years overdue lands on the rule's next day without stepping through every period")
    func yearsLate() throws {
        let frequency = try Frequency(rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH")
        let anchor = date("2020-01-06", in: utc)  // a Monday
        let next = frequency.nextDueDate(
            from: anchor, after: anchor, completedAt: date("2026-11-25", in: utc), calendar: utc)
        let upcoming = frequency.occurrences(
            from: anchor, through: date("2026-12-31", in: utc), calendar: utc, limit: 10_000)
        #expect(next == upcoming.first { $0 > date("2026-11-25T23:59", in: utc) })
        #expect(next == date("2026-11-30", in: utc))  // week 360 from the anchor's
    }

    @Test("occurrences: on or after the anchor, through the end, at most the limit")
    func occurrences() throws {
        let monthly = try Frequency(count: 1, unit: .month)
        let jan31 = date("2026-01-31", in: utc)
        #expect(
            monthly.occurrences(from: jan31, through: date("2026-04-30", in: utc), calendar: utc, limit: 10)
                == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"].map { date($0, in: utc) })
        let weekly = try Frequency(rrule: "FREQ=WEEKLY;BYDAY=MO,TH")
        let tuesday = date("2026-12-01", in: utc)
        let end = date("2026-12-31", in: utc)
        #expect(
            weekly.occurrences(from: tuesday, through: end, calendar: utc, limit: 3)
                == ["2026-12-03", "2026-12-07", "2026-12-10"].map { date($0, in: utc) })
        #expect(weekly.occurrences(from: tuesday, through: end, calendar: utc, limit: 0).isEmpty)
        #expect(
            weekly.occurrences(from: tuesday, through: date("2026-11-01", in: utc), calendar: utc, limit: 5).isEmpty)
        #expect(monthly.occurrences(from: jan31, through: jan31, calendar: utc, limit: 5) == [jan31])
        let daily = try Frequency(count: 1, unit: .day)
        #expect(
            daily.occurrences(from: jan31, through: .distantFuture, calendar: utc, limit: .max).count
                == Frequency.maximumOccurrences)
        // The anchor's time of day is every occurrence's.
        let evening = date("2026-12-01T19:30", in: utc)
        #expect(
            weekly.occurrences(from: evening, through: end, calendar: utc, limit: 1) == [
                date("2026-12-03T19:30", in: utc)
            ])
    }

    /// A rule and the days it means, said another way: day by day.
    struct Oracle: Sendable, CustomStringConvertible {
        let rule: String
        let anchor: String
        let matches: @Sendable (_ day: DateComponents, _ daysFromAnchor: Int, _ monthLength: Int) -> Bool
        var description: String { rule }
    }

    static let oracles: [Oracle] = [
        Oracle(rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", anchor: "2026-11-30") { day, offset, _ in
            [2, 5].contains(day.weekday ?? 0) && (offset + 7_000) / 7 % 2 == 0
        },
        Oracle(rule: "FREQ=MONTHLY;BYDAY=-1FR", anchor: "2026-01-30") { day, _, length in
            day.weekday == 6 && (day.day ?? 0) + 7 > length
        },
        Oracle(rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", anchor: "2026-01-30") { day, _, length in
            // A weekday with no weekday after it in its month.
            let weekday = day.weekday ?? 0
            let dayOfMonth = day.day ?? 0
            guard (2...6).contains(weekday) else { return false }
            return dayOfMonth == length || (weekday == 6 && dayOfMonth + 2 >= length)
        },
        Oracle(rule: "FREQ=MONTHLY;BYDAY=2MO", anchor: "2026-01-12") { day, _, _ in
            day.weekday == 2 && ((day.day ?? 0) - 1) / 7 == 1
        },
        Oracle(rule: "FREQ=MONTHLY;BYMONTHDAY=31", anchor: "2026-01-31") { day, _, _ in day.day == 31 },
        Oracle(rule: "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1,-1", anchor: "2026-01-01") { day, _, length in
            ((day.month ?? 0) - 1) % 2 == 0 && (day.day == 1 || day.day == length)
        },
        Oracle(rule: "FREQ=DAILY;INTERVAL=3;BYDAY=SA,SU", anchor: "2026-11-27") { day, offset, _ in
            offset % 3 == 0 && [1, 7].contains(day.weekday ?? 0)
        },
    ]

    @Test("over two years, occurrences and every next due date agree with the rule said day by day", arguments: oracles)
    func agreesWithOracle(oracle: Oracle) throws {
        let frequency = try Frequency(rrule: oracle.rule)
        let anchor = date(oracle.anchor, in: utc)
        let end = date("2028-12-31", in: utc)
        var expected: [Date] = []
        var day = anchor
        while day <= end {
            let parts = utc.dateComponents([.year, .month, .day, .weekday], from: day)
            let length = utc.range(of: .day, in: .month, for: day)?.count ?? 0
            let offset = utc.dateComponents([.day], from: anchor, to: day).day ?? 0
            if oracle.matches(parts, offset, length) { expected.append(day) }
            day = utc.date(byAdding: .day, value: 1, to: day) ?? end.addingTimeInterval(1)
        }
        #expect(!expected.isEmpty)
        #expect(frequency.occurrences(from: anchor, through: end, calendar: utc, limit: 10_000) == expected)
        // Done on any day (at noon), the next due date is the first occurrence after that day.
        var done = anchor
        while let next = expected.first(where: { $0 > done }) {
            #expect(
                frequency.nextDueDate(
                    from: anchor, after: anchor, completedAt: done.addingTimeInterval(43_200), calendar: utc)
                    == next, "done \(done)")
            done = utc.date(byAdding: .day, value: 5, to: done) ?? end
        }
    }
}
