public import Foundation

/// How often a recurring household task comes back: every N days, weeks, months or years,
/// optionally on given weekdays or days of the month, as an RFC 5545 `RRULE` says it
/// (`FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH`; see `init(rrule:)` and `rruleValue`).
public struct Frequency: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The calendar unit a frequency counts in.
    public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
        /// Calendar days (wall-clock time kept across daylight-saving changes).
        case day
        /// Seven calendar days.
        case week
        /// Calendar months, clamped to the month's last day.
        case month
        /// Calendar years (Feb 29 becomes Feb 28 in common years).
        case year

        /// The `Calendar.Component` this unit advances.
        public var calendarComponent: Calendar.Component {
            switch self {
            case .day: .day
            case .week: .weekOfYear
            case .month: .month
            case .year: .year
            }
        }
    }

    /// How many units lie between two occurrences; at least 1.
    public let count: Int
    /// The unit `count` is measured in.
    public let unit: Unit
    /// The weekdays it falls on (RFC 5545 `BYDAY`), Monday first: the listed days of each week
    /// for a weekly frequency, the listed (or numbered: the 2nd Monday, the last Friday) weekdays
    /// of the month for a monthly or yearly one, a filter on the days of a daily one. Empty for
    /// none.
    public let weekdays: [WeekdayRule]
    /// The days of the month it falls on (RFC 5545 `BYMONTHDAY`), 1…31 or, counting from the
    /// month's end, -31…-1 (-1 is the last day), first days first. A month without the day is
    /// skipped. Empty for none.
    public let monthDays: [Int]
    /// Which of each period's days it falls on (RFC 5545 `BYSETPOS`), 1…366 or, counting from
    /// the end, -366…-1: `weekdays` Monday to Friday with `[-1]` is the last weekday of the month.
    /// Empty for all of them.
    public let setPositions: [Int]

    /// Creates a frequency of `count` units, with no rule parts.
    ///
    /// - Throws: `ModelError.invalidFrequencyCount` when `count` is below 1.
    public init(count: Int, unit: Unit) throws(ModelError) {
        try self.init(count: count, unit: unit, weekdays: [], monthDays: [], setPositions: [])
    }

    /// Creates a frequency of `count` units falling on the given weekdays, days of the month and
    /// positions. Each list is kept sorted, without repeats, so that equal rules compare equal.
    ///
    /// - Parameters:
    ///   - count: how many units lie between two periods; at least 1.
    ///   - unit: the unit `count` is measured in.
    ///   - weekdays: RFC 5545 `BYDAY`; numbered ones only with `.month` or `.year`.
    ///   - monthDays: RFC 5545 `BYMONTHDAY`, 1…31 or -31…-1; not with `.week`.
    ///   - setPositions: RFC 5545 `BYSETPOS`, 1…366 or -366…-1.
    /// - Throws: `ModelError.invalidFrequencyCount` when `count` is below 1,
    ///   `ModelError.invalidRecurrence` naming the part that is out of range or does not fit `unit`.
    public init(
        count: Int, unit: Unit, weekdays: [WeekdayRule], monthDays: [Int] = [], setPositions: [Int] = []
    ) throws(ModelError) {
        guard count >= 1 else { throw .invalidFrequencyCount(count) }
        if unit == .day || unit == .week, let numbered = weekdays.first(where: { $0.ordinal != nil }) {
            throw .invalidRecurrence(
                "\(numbered) needs a monthly or yearly recurrence, not a \(unit == .day ? "daily" : "weekly") one")
        }
        if let day = monthDays.first(where: { !Self.counts($0, upTo: Self.monthDayLimit) }) {
            throw .invalidRecurrence("a day of the month is 1 to 31, or -31 to -1 counting from the end, not \(day)")
        }
        if unit == .week, !monthDays.isEmpty {
            throw .invalidRecurrence("a weekly recurrence cannot fall on days of the month")
        }
        if let position = setPositions.first(where: { !Self.counts($0, upTo: Self.setPositionLimit) }) {
            throw .invalidRecurrence("a position is 1 to 366, or -366 to -1 counting from the end, not \(position)")
        }
        self.count = count
        self.unit = unit
        self.weekdays = Set(weekdays).sorted {
            ($0.weekday.mondayOffset, $0.ordinal ?? 0) < ($1.weekday.mondayOffset, $1.ordinal ?? 0)
        }
        self.monthDays = Self.fromStartThenEnd(monthDays)
        self.setPositions = Self.fromStartThenEnd(setPositions)
    }

    /// The furthest `monthDays` count, from either end of the month.
    static let monthDayLimit = 31
    /// The furthest `setPositions` count, from either end of a period.
    static let setPositionLimit = 366

    /// Whether `value` counts 1…`limit` from the start or -`limit`…-1 from the end (0 does
    /// not count; `abs` would trap on `Int.min`, which decoded JSON can hold).
    static func counts(_ value: Int, upTo limit: Int) -> Bool {
        value != 0 && value >= -limit && value <= limit
    }

    /// `values` without repeats, counted-from-the-start ones first (ascending), then those
    /// counted from the end, the last last: `[15, 1, -1, -2]` → `[1, 15, -2, -1]`.
    private static func fromStartThenEnd(_ values: [Int]) -> [Int] {
        Set(values).sorted { ($0 < 0 ? 1 : 0, $0) < ($1 < 0 ? 1 : 0, $1) }
    }

    /// Whether any rule part (`weekdays`, `monthDays`, `setPositions`) is set.
    var hasRuleParts: Bool { !weekdays.isEmpty || !monthDays.isEmpty || !setPositions.isEmpty }

    // Raw values in camelCase: `JSONCoding`'s encoder writes `month_days` and its decoder reads
    // `month_days` back as `monthDays`, so its round trip is exact.
    private enum CodingKeys: String, CodingKey { case count, unit, weekdays, monthDays, setPositions }

    /// Decodes `{"count": 1, "unit": "week"}`, with `weekdays` (`["MO", "-1FR"]`), `month_days`
    /// and `set_positions` when present, rejecting what the initializer rejects.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let count = try container.decode(Int.self, forKey: .count)
        let unit = try container.decode(Unit.self, forKey: .unit)
        let weekdays = try container.decodeIfPresent([WeekdayRule].self, forKey: .weekdays) ?? []
        let monthDays = try container.decodeIfPresent([Int].self, forKey: .monthDays) ?? []
        let setPositions = try container.decodeIfPresent([Int].self, forKey: .setPositions) ?? []
        do {
            try self.init(
                count: count, unit: unit, weekdays: weekdays, monthDays: monthDays, setPositions: setPositions)
        } catch {
            let key: CodingKeys =
                if count < 1 {
                    .count
                } else if monthDays.contains(where: { !Self.counts($0, upTo: Self.monthDayLimit) })
                    || (unit == .week && !monthDays.isEmpty)
                {
                    .monthDays
                } else if setPositions.contains(where: { !Self.counts($0, upTo: Self.setPositionLimit) }) {
                    .setPositions
                } else {
                    .weekdays
                }
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: error.errorDescription ?? "invalid frequency")
        }
    }

    /// Encodes `count` and `unit`, and each rule part only when it is not empty.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(unit, forKey: .unit)
        if !weekdays.isEmpty { try container.encode(weekdays, forKey: .weekdays) }
        if !monthDays.isEmpty { try container.encode(monthDays, forKey: .monthDays) }
        if !setPositions.isEmpty { try container.encode(setPositions, forKey: .setPositions) }
    }

    /// The next due date after a completion.
    ///
    /// Occurrences are counted from the due date, not from the completion, so a chore done
    /// early or late keeps its rhythm; occurrences that fall on or before the completion's day
    /// are skipped. Each candidate is computed from `dueDate` in one step (`dueDate + k × count`
    /// units), so month arithmetic clamps without drifting: Jan 31 → Feb 28 (or 29) → Mar 31.
    /// Days keep their wall-clock time across daylight-saving changes in `calendar`'s zone.
    ///
    /// - Parameters:
    ///   - dueDate: the occurrence that was completed (or missed).
    ///   - completedAt: when the task was done.
    ///   - calendar: the user's calendar and time zone.
    /// - Returns: the first occurrence on a later day than `completedAt`.
    public func nextDueDate(after dueDate: Date, completedAt: Date, calendar: Calendar) -> Date {
        nextDueDate(from: dueDate, after: dueDate, completedAt: completedAt, calendar: calendar)
    }

    /// The next due date after a completion, counted from `anchor`: the first occurrence on a
    /// later day than both the completed `dueDate` and the completion, in `calendar`'s time zone.
    ///
    /// Without rule parts the occurrences are `anchor + k × count` units, each computed in one
    /// step, so counting from the anchor keeps month ends: a chore anchored on Jan 31 is due
    /// Feb 28, then Mar 31, not Mar 28. With rule parts they are the days RFC 5545 expands the
    /// rule to from `anchor` (see `occurrences(from:through:calendar:limit:)`), at the anchor's
    /// time of day.
    ///
    /// The search starts near the answer and is bounded: a calendar that cannot add the unit
    /// (it never happens with the Gregorian calendar) yields the day after the completion, and
    /// a rule that matches no day for thousands of periods (`BYMONTHDAY=31` every year in
    /// February) yields the next date of its count and unit alone.
    ///
    /// - Parameters:
    ///   - anchor: the occurrence the rhythm counts from (a task's first due date).
    ///   - dueDate: the occurrence that was completed (or missed).
    ///   - completedAt: when the task was done.
    ///   - calendar: the user's calendar and time zone.
    /// - Returns: the first occurrence on a later day than `dueDate` and `completedAt`.
    public func nextDueDate(from anchor: Date, after dueDate: Date, completedAt: Date, calendar: Calendar) -> Date {
        let floor = max(calendar.startOfDay(for: completedAt), calendar.startOfDay(for: dueDate))
        if hasRuleParts, let next = RuleSchedule(self, anchor: anchor, calendar: calendar)?.first(after: floor) {
            return next
        }
        return plainNextDueDate(from: anchor, after: dueDate, completedAt: completedAt, calendar: calendar)
    }

    /// `nextDueDate(from:after:completedAt:calendar:)` by count and unit alone.
    private func plainNextDueDate(from anchor: Date, after dueDate: Date, completedAt: Date, calendar: Calendar)
        -> Date
    {
        let completionDay = calendar.startOfDay(for: completedAt)
        let floor = max(completionDay, calendar.startOfDay(for: dueDate))
        let component = unit.calendarComponent
        // Jump close to the answer instead of stepping through years of missed daily chores.
        let elapsed = calendar.dateComponents([component], from: anchor, to: floor).value(for: component) ?? 0
        var multiple = max(1, elapsed / max(1, count))
        for _ in 0..<1000 {
            // A count no calendar can add (another program wrote it into the database) ends the
            // search instead of overflowing.
            let (value, overflow) = multiple.multipliedReportingOverflow(by: count)
            guard !overflow else { break }
            if let candidate = calendar.date(byAdding: component, value: value, to: anchor),
                calendar.startOfDay(for: candidate) > floor
            {
                return candidate
            }
            multiple += 1
        }
        return calendar.date(byAdding: .day, value: 1, to: completionDay) ?? completionDay
    }
}
