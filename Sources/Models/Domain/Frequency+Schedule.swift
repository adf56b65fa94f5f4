public import Foundation

extension Frequency {
    /// The most dates `occurrences(from:through:calendar:limit:)` returns.
    public static let maximumOccurrences = 10_000

    /// The occurrences on or after `anchor` through `end`, first first, at most `limit` of them
    /// (and never more than `maximumOccurrences`): for an agenda.
    ///
    /// Without rule parts they are `anchor + k × count` units (k = 0, 1, …), each computed in one
    /// step, as `nextDueDate(from:after:completedAt:calendar:)` counts them. With rule parts they
    /// are the days RFC 5545 expands the rule to in `calendar` and its time zone, at the anchor's
    /// time of day, from the anchor's day on:
    /// - daily: every `count`th day from the anchor, kept when it is one of `weekdays` and one
    ///   of `monthDays` (each when given);
    /// - weekly: `weekdays` (the anchor's weekday when none) of every `count`th week from the
    ///   anchor's, weeks starting on Monday;
    /// - monthly: in every `count`th month from the anchor's, `monthDays` (a month without the
    ///   31st has none for 31), or else `weekdays`, each numbered one (`-1FR`) once and an
    ///   unnumbered one (`FR`) every week; `monthDays` and `weekdays` together are the days
    ///   that are both; neither is the anchor's day of the month (clamped to the month's end);
    /// - yearly: as monthly, in the anchor's month of every `count`th year;
    /// - `setPositions` then pick from each period's days, counted from its first or last.
    ///
    /// A rule that gives no day for thousands of periods in a row ends the list there.
    ///
    /// - Parameters:
    ///   - anchor: the first occurrence (a task's first due date); the rhythm counts from it.
    ///   - end: the last instant to include.
    ///   - calendar: the user's calendar and time zone.
    ///   - limit: the most dates to return.
    /// - Returns: the occurrences, ascending; empty when `limit` is below 1 or `end` before `anchor`.
    public func occurrences(from anchor: Date, through end: Date, calendar: Calendar, limit: Int) -> [Date] {
        let limit = min(limit, Self.maximumOccurrences)
        guard limit > 0, anchor <= end else { return [] }
        if hasRuleParts {
            return RuleSchedule(self, anchor: anchor, calendar: calendar)?.occurrences(through: end, limit: limit) ?? []
        }
        var dates: [Date] = []
        for multiple in 0..<limit {
            let (value, overflow) = multiple.multipliedReportingOverflow(by: count)
            guard !overflow, let date = calendar.date(byAdding: unit.calendarComponent, value: value, to: anchor),
                date <= end
            else { break }
            dates.append(date)
        }
        return dates
    }
}

/// A day of a calendar, by its year, month and day numbers.
private struct CivilDay: Hashable, Comparable {
    var year: Int
    var month: Int
    var day: Int

    static func < (lhs: CivilDay, rhs: CivilDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A frequency with rule parts, expanded period by period from its anchor (see
/// `Frequency.occurrences(from:through:calendar:limit:)` for the rules).
struct RuleSchedule {
    private let frequency: Frequency
    private let calendar: Calendar
    private let anchorDay: CivilDay
    private let anchorWeekday: Frequency.Weekday
    /// The anchor's time of day, which every occurrence keeps.
    private let time: DateComponents
    /// Noon of period 0's first day: the anchor's day, its week's Monday, or its month's first.
    private let origin: Date
    private let originDay: CivilDay

    /// How many periods the search goes through before it gives up on a rule that gives no day.
    static let maximumPeriods = 2_500
    /// The last year an occurrence may fall in.
    static let lastYear = 9999

    init?(_ frequency: Frequency, anchor: Date, calendar: Calendar) {
        let parts = calendar.dateComponents(
            [.year, .month, .day, .weekday, .hour, .minute, .second, .nanosecond], from: anchor)
        guard let year = parts.year, let month = parts.month, let day = parts.day,
            let weekday = parts.weekday.flatMap(Frequency.Weekday.init(calendarWeekday:))
        else { return nil }
        self.frequency = frequency
        self.calendar = calendar
        anchorDay = CivilDay(year: year, month: month, day: day)
        anchorWeekday = weekday
        time = DateComponents(
            hour: parts.hour, minute: parts.minute, second: parts.second, nanosecond: parts.nanosecond)
        guard let anchorNoon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))
        else { return nil }
        let start: Date?
        switch frequency.unit {
        case .day: start = anchorNoon
        case .week: start = calendar.date(byAdding: .day, value: -weekday.mondayOffset, to: anchorNoon)
        case .month, .year: start = calendar.date(from: DateComponents(year: year, month: month, day: 1, hour: 12))
        }
        guard let start, let startDay = Self.civilDay(start, calendar) else { return nil }
        origin = start
        originDay = startDay
    }

    /// The first occurrence on a later day than `floor`'s; `nil` when none comes within
    /// `maximumPeriods` periods of it or before the year 10000.
    func first(after floor: Date) -> Date? {
        guard let floorDay = Self.civilDay(floor, calendar) else { return nil }
        let first = firstPeriod(near: floorDay)
        for period in first..<(first + Self.maximumPeriods) {
            guard let start = periodStart(period), let startDay = Self.civilDay(start, calendar),
                startDay.year <= Self.lastYear
            else { return nil }
            for day in days(inPeriodStarting: start) where day >= anchorDay && day > floorDay {
                if let date = date(on: day) { return date }
            }
        }
        return nil
    }

    /// The occurrences from the anchor's day through `end`, at most `limit`.
    func occurrences(through end: Date, limit: Int) -> [Date] {
        var dates: [Date] = []
        var emptyPeriods = 0
        var period = 0
        while emptyPeriods < Self.maximumPeriods {
            guard let start = periodStart(period), calendar.startOfDay(for: start) <= end,
                let startDay = Self.civilDay(start, calendar), startDay.year <= Self.lastYear
            else { break }
            let days = days(inPeriodStarting: start).filter { $0 >= anchorDay }
            emptyPeriods = days.isEmpty ? emptyPeriods + 1 : 0
            for day in days {
                guard let date = date(on: day) else { continue }
                guard date <= end else { return dates }
                dates.append(date)
                if dates.count >= limit { return dates }
            }
            period += 1
        }
        return dates
    }

    /// A period a little before the one holding `day`, so that the search starts near it
    /// instead of stepping through years of missed daily chores.
    private func firstPeriod(near day: CivilDay) -> Int {
        let units: Int
        switch frequency.unit {
        case .day, .week:
            guard
                let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
            else { return 0 }
            let days = calendar.dateComponents([.day], from: origin, to: noon).day ?? 0
            units = frequency.unit == .day ? days : days / 7
        case .month:
            units = (day.year - originDay.year) * 12 + day.month - originDay.month
        case .year:
            units = day.year - originDay.year
        }
        return max(0, units / frequency.count - 1)
    }

    /// Noon of the first day of period `index` (0 holds the anchor); `nil` past the calendar's
    /// reach.
    private func periodStart(_ index: Int) -> Date? {
        let (value, overflow) = index.multipliedReportingOverflow(by: frequency.count)
        guard !overflow else { return nil }
        switch frequency.unit {
        case .day: return calendar.date(byAdding: .day, value: value, to: origin)
        case .week:
            let (days, overflow) = value.multipliedReportingOverflow(by: 7)
            return overflow ? nil : calendar.date(byAdding: .day, value: days, to: origin)
        case .month: return calendar.date(byAdding: .month, value: value, to: origin)
        case .year: return calendar.date(byAdding: .year, value: value, to: origin)
        }
    }

    /// The days of the period that starts at `start`, ascending, after `setPositions`.
    private func days(inPeriodStarting start: Date) -> [CivilDay] {
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: start)
        guard let year = parts.year, let month = parts.month, let day = parts.day, let weekday = parts.weekday,
            let length = calendar.range(of: .day, in: .month, for: start)?.count
        else { return [] }
        let set: [CivilDay]
        switch frequency.unit {
        case .day:
            let listed =
                frequency.weekdays.isEmpty || frequency.weekdays.contains { $0.weekday.calendarWeekday == weekday }
            let dated = frequency.monthDays.isEmpty || frequency.monthDays.contains { Self.resolved($0, length) == day }
            set = listed && dated ? [CivilDay(year: year, month: month, day: day)] : []
        case .week:
            let weekdays = frequency.weekdays.isEmpty ? [anchorWeekday] : frequency.weekdays.map(\.weekday)
            set = weekdays.compactMap { weekday in
                calendar.date(byAdding: .day, value: weekday.mondayOffset, to: start).flatMap {
                    Self.civilDay($0, calendar)
                }
            }
        case .month, .year:
            set = monthDays(length: length, firstWeekday: weekday).map { CivilDay(year: year, month: month, day: $0) }
        }
        return selected(Array(Set(set)).sorted())
    }

    /// The days of a month of `length` days whose first day is `firstWeekday` (1 is Sunday).
    private func monthDays(length: Int, firstWeekday: Int) -> [Int] {
        func matches(_ rule: Frequency.WeekdayRule, _ day: Int) -> Bool {
            guard (firstWeekday - 1 + day - 1) % 7 + 1 == rule.weekday.calendarWeekday else { return false }
            guard let ordinal = rule.ordinal else { return true }
            return ordinal > 0 ? (day - 1) / 7 + 1 == ordinal : (length - day) / 7 + 1 == -ordinal
        }
        if !frequency.monthDays.isEmpty {
            let days = frequency.monthDays.compactMap { Self.resolved($0, length) }
            guard !frequency.weekdays.isEmpty else { return days }
            return days.filter { day in frequency.weekdays.contains { matches($0, day) } }
        }
        if !frequency.weekdays.isEmpty {
            return (1...length).filter { day in frequency.weekdays.contains { matches($0, day) } }
        }
        return [min(anchorDay.day, length)]
    }

    /// The days `setPositions` pick from a period's `days`; all of them when it is empty.
    private func selected(_ days: [CivilDay]) -> [CivilDay] {
        guard !frequency.setPositions.isEmpty else { return days }
        let picked = frequency.setPositions.compactMap { position -> CivilDay? in
            let index = position > 0 ? position - 1 : days.count + position
            return days.indices.contains(index) ? days[index] : nil
        }
        return Array(Set(picked)).sorted()
    }

    /// The day of the month `monthDay` names (-1 is the last) in a month of `length` days;
    /// `nil` when the month has no such day.
    private static func resolved(_ monthDay: Int, _ length: Int) -> Int? {
        let day = monthDay > 0 ? monthDay : length + 1 + monthDay
        return (1...length).contains(day) ? day : nil
    }

    /// The occurrence on `day`, at the anchor's time of day (a time a daylight-saving change
    /// skips becomes the next one that exists).
    private func date(on day: CivilDay) -> Date? {
        var components = time
        components.year = day.year
        components.month = day.month
        components.day = day.day
        return calendar.date(from: components)
    }

    private static func civilDay(_ date: Date, _ calendar: Calendar) -> CivilDay? {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return CivilDay(year: year, month: month, day: day)
    }
}
