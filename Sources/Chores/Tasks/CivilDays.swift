import Foundation
import Models

/// Due dates are civil days (`2026-11-21`), not instants: a task due on the 21st is due on the
/// 21st wherever the user is. `TaskService` stores a due day as 00:00 UTC of that day and does
/// its day arithmetic in UTC, where every day has 24 hours; only "what day is it now" depends
/// on the user's time zone. Moving to another zone keeps every due day; it changes "today".
struct CivilDays: Sendable {
    /// The user's calendar: its time zone decides which day an instant falls on.
    let calendar: Calendar
    /// The same calendar in UTC, where due days live.
    let utc: Calendar

    init(calendar: Calendar) {
        self.calendar = calendar
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        self.utc = utc
    }

    /// The day `instant` falls on in the user's time zone, as a stored due day; `nil` when the
    /// calendar cannot represent it.
    func day(containing instant: Date) -> Date? {
        let components = calendar.dateComponents([.era, .year, .month, .day], from: instant)
        return utc.date(from: components)
    }

    /// The day `count` days after `day` (before, when negative).
    func day(_ count: Int, after day: Date) -> Date {
        utc.date(byAdding: .day, value: count, to: day) ?? day.addingTimeInterval(Double(count) * 86_400)
    }
}
