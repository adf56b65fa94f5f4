import Foundation
import Models
import Testing

/// A Gregorian calendar in a fixed zone, so results never depend on the machine running them.
func calendar(_ zone: String) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
    return calendar
}

/// A wall-clock time in `calendar`'s zone.
func date(_ text: String, in calendar: Calendar) -> Date {
    let parts = text.split(whereSeparator: { "- :T".contains($0) }).compactMap { Int($0) }
    let components = DateComponents(
        year: parts[0], month: parts[1], day: parts[2],
        hour: parts.count > 3 ? parts[3] : 0, minute: parts.count > 4 ? parts[4] : 0)
    return calendar.date(from: components) ?? Date.distantPast
}

@Suite("Frequency")
struct FrequencyTests {
    let utc = calendar("UTC")

    @Test("a count below 1 is rejected")
    func countMustBePositive() throws {
        #expect(throws: ModelError.invalidFrequencyCount(0)) { try Frequency(count: 0, unit: .day) }
        #expect(throws: ModelError.invalidFrequencyCount(-2)) { try Frequency(count: -2, unit: .week) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Frequency.self, from: Data(#"{"count":0,"unit":"week"}"#.utf8))
        }
    }

    @Test("JSON shape is {count, unit}")
    func jsonShape() throws {
        let frequency = try Frequency(count: 2, unit: .week)
        let text = String(decoding: try JSONCoding.encoder().encode(frequency), as: UTF8.self)
        #expect(text == #"{"count":2,"unit":"week"}"#)
        #expect(frequency.description == "every 2 weeks")
        #expect(try Frequency(count: 1, unit: .day).description == "every day")
    }

    @Test("completing early advances from the due date, not from now")
    func earlyCompletionKeepsRhythm() throws {
        let weekly = try Frequency(count: 1, unit: .week)
        let due = date("2026-11-23", in: utc)  // a Monday
        let doneSaturday = date("2026-11-21T18:00", in: utc)
        #expect(weekly.nextDueDate(after: due, completedAt: doneSaturday, calendar: utc) == date("2026-11-30", in: utc))
    }

    @Test("completing on the due day moves one period on")
    func onTimeCompletion() throws {
        let weekly = try Frequency(count: 1, unit: .week)
        let due = date("2026-11-23", in: utc)
        #expect(
            weekly.nextDueDate(after: due, completedAt: date("2026-11-23T21:30", in: utc), calendar: utc)
                == date("2026-11-30", in: utc))
    }

    @Test("completing late skips the occurrences already past")
    func lateCompletionSkipsPast() throws {
        let weekly = try Frequency(count: 1, unit: .week)
        let due = date("2026-11-02", in: utc)
        // Done three and a half weeks late: Nov 9, 16 and 23 are past; the 30th is next.
        #expect(
            weekly.nextDueDate(after: due, completedAt: date("2026-11-26T09:00", in: utc), calendar: utc)
                == date("2026-11-30", in: utc))
        // Done exactly on a later occurrence's day: that occurrence counts as done.
        #expect(
            weekly.nextDueDate(after: due, completedAt: date("2026-11-16T09:00", in: utc), calendar: utc)
                == date("2026-11-23", in: utc))
        let everyThreeDays = try Frequency(count: 3, unit: .day)
        #expect(
            everyThreeDays.nextDueDate(after: due, completedAt: date("2026-11-10", in: utc), calendar: utc)
                == date("2026-11-11", in: utc))
    }

    @Test("a chore years overdue still lands on its rhythm")
    func veryLateCompletion() throws {
        let daily = try Frequency(count: 2, unit: .day)
        let due = date("2020-01-01", in: utc)
        let next = daily.nextDueDate(after: due, completedAt: date("2026-11-22T12:00", in: utc), calendar: utc)
        #expect(next == date("2026-11-23", in: utc) || next == date("2026-11-24", in: utc))
        #expect(next > date("2026-11-22T23:59", in: utc))
        let days = utc.dateComponents([.day], from: due, to: next).day ?? -1
        #expect(days % 2 == 0)
    }

    @Test("month arithmetic clamps to the month's last day without drifting")
    func monthClamping() throws {
        let monthly = try Frequency(count: 1, unit: .month)
        let jan31 = date("2026-01-31", in: utc)
        #expect(monthly.nextDueDate(after: jan31, completedAt: jan31, calendar: utc) == date("2026-02-28", in: utc))
        // Completing in February jumps to March 31, computed from Jan 31 (not Feb 28 + 1 month).
        #expect(
            monthly.nextDueDate(after: jan31, completedAt: date("2026-03-01", in: utc), calendar: utc)
                == date("2026-03-31", in: utc))
    }

    @Test("counted from the anchor, a month end survives short months: Jan 31 → Feb 28 → Mar 31 → Apr 30")
    func anchoredMonthEnds() throws {
        let monthly = try Frequency(count: 1, unit: .month)
        let jan31 = date("2026-01-31", in: utc)
        let feb28 = date("2026-02-28", in: utc)
        #expect(
            monthly.nextDueDate(from: jan31, after: feb28, completedAt: feb28, calendar: utc)
                == date("2026-03-31", in: utc))
        let mar31 = date("2026-03-31", in: utc)
        #expect(
            monthly.nextDueDate(from: jan31, after: mar31, completedAt: mar31, calendar: utc)
                == date("2026-04-30", in: utc))
        // Done early (before the due day), the next one is still after the due day.
        #expect(
            monthly.nextDueDate(from: jan31, after: mar31, completedAt: date("2026-03-20", in: utc), calendar: utc)
                == date("2026-04-30", in: utc))
        // Without an anchor the stored due day is the anchor, and the 28th sticks.
        #expect(monthly.nextDueDate(after: feb28, completedAt: feb28, calendar: utc) == date("2026-03-28", in: utc))
    }

    @Test("a completed task keeps its anchor; a task without one is anchored on its due date")
    func taskAnchors() throws {
        let monthly = try Frequency(count: 1, unit: .month)
        let jan31 = date("2026-01-31", in: utc)
        let task = HouseholdTask(name: "Pay rent", dueDate: jan31, frequency: monthly, createdAt: jan31)
        let first = task.completed(at: jan31, calendar: utc).task
        #expect(first.anchorDate == jan31 && first.dueDate == date("2026-02-28", in: utc))
        let feb28 = date("2026-02-28", in: utc)
        #expect(first.completed(at: feb28, calendar: utc).task.dueDate == date("2026-03-31", in: utc))
    }

    @Test("leap years: Jan 31 + 1 month is Feb 29, Feb 29 + 1 year is Feb 28")
    func leapYears() throws {
        let monthly = try Frequency(count: 1, unit: .month)
        let yearly = try Frequency(count: 1, unit: .year)
        let jan31 = date("2028-01-31", in: utc)
        #expect(monthly.nextDueDate(after: jan31, completedAt: jan31, calendar: utc) == date("2028-02-29", in: utc))
        let feb29 = date("2028-02-29", in: utc)
        #expect(yearly.nextDueDate(after: feb29, completedAt: feb29, calendar: utc) == date("2029-02-28", in: utc))
        // Four years on from Feb 29 it is Feb 29 again.
        #expect(
            yearly.nextDueDate(after: feb29, completedAt: date("2031-06-01", in: utc), calendar: utc)
                == date("2032-02-29", in: utc))
    }

    @Test("daylight-saving changes keep the wall-clock time", arguments: ["Europe/Berlin", "America/New_York"])
    func daylightSaving(zone: String) throws {
        let local = calendar(zone)
        let daily = try Frequency(count: 1, unit: .day)
        let weekly = try Frequency(count: 1, unit: .week)
        // Spring forward: Europe on 2026-03-29, the US on 2026-03-08. Fall back: Oct 25 / Nov 1.
        for (before, after) in [
            ("2026-03-28", "2026-03-29"), ("2026-03-07", "2026-03-08"),
            ("2026-10-24", "2026-10-25"), ("2026-10-31", "2026-11-01"),
        ] {
            let due = date(before + "T08:00", in: local)
            let next = daily.nextDueDate(after: due, completedAt: due, calendar: local)
            #expect(next == date(after + "T08:00", in: local))
            #expect(local.component(.hour, from: next) == 8)
        }
        let due = date("2026-03-25T00:00", in: local)
        let next = weekly.nextDueDate(after: due, completedAt: due, calendar: local)
        #expect(next == date("2026-04-01T00:00", in: local))
        #expect(local.component(.hour, from: next) == 0)
    }

    @Test("the next due date is judged by the user's calendar day, not UTC")
    func dayBoundaryUsesCalendarZone() throws {
        let tokyo = calendar("Asia/Tokyo")
        let daily = try Frequency(count: 1, unit: .day)
        let due = date("2026-11-22", in: tokyo)
        // 23:30 UTC on the 22nd is already the 23rd in Tokyo: the 23rd's occurrence is done.
        let completion = date("2026-11-22T23:30", in: utc)
        #expect(
            daily.nextDueDate(after: due, completedAt: completion, calendar: tokyo) == date("2026-11-24", in: tokyo))
    }
}
