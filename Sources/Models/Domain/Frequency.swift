public import Foundation

/// How often a recurring household task comes back: every N days, weeks, months or years.
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

    /// Creates a frequency of `count` units.
    ///
    /// - Throws: `ModelError.invalidFrequencyCount` when `count` is below 1.
    public init(count: Int, unit: Unit) throws(ModelError) {
        guard count >= 1 else { throw .invalidFrequencyCount(count) }
        self.count = count
        self.unit = unit
    }

    private enum CodingKeys: String, CodingKey { case count, unit }

    /// Decodes `{"count": 1, "unit": "week"}`, rejecting a count below 1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let count = try container.decode(Int.self, forKey: .count)
        let unit = try container.decode(Unit.self, forKey: .unit)
        do {
            try self.init(count: count, unit: unit)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .count, in: container, debugDescription: error.errorDescription ?? "invalid count")
        }
    }

    /// `every day`, `every 2 weeks`.
    public var description: String {
        count == 1 ? "every \(unit.rawValue)" : "every \(count) \(unit.rawValue)s"
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

    /// The next due date after a completion, counted from `anchor`: the first occurrence
    /// (`anchor + k × count` units, each computed in one step) on a later day than both the
    /// completed `dueDate` and the completion. Counting from the anchor keeps month ends: a
    /// chore anchored on Jan 31 is due Feb 28, then Mar 31, not Mar 28.
    ///
    /// The search starts near the answer and is bounded: a calendar that cannot add the unit
    /// (it never happens with the Gregorian calendar) yields the day after the completion.
    public func nextDueDate(from anchor: Date, after dueDate: Date, completedAt: Date, calendar: Calendar) -> Date {
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
