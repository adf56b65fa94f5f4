public import Foundation

/// How much a chore matters, as iCalendar's `PRIORITY` ranks it (RFC 5545 3.8.1.9) and Apple
/// Reminders writes it: high is 1, medium 5, low 9; 0 or no value is none.
public enum TaskPriority: Int, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// `PRIORITY:1` (RFC 5545 reads 1–4 as high).
    case high = 1
    /// `PRIORITY:5`.
    case medium = 5
    /// `PRIORITY:9` (RFC 5545 reads 6–9 as low).
    case low = 9

    /// The priority an iCalendar `PRIORITY` value means: 1–4 high, 5 medium, 6–9 low, and `nil`
    /// for 0 (undefined) or a value outside 0–9.
    public init?(iCalendar value: Int) {
        switch value {
        case 1...4: self = .high
        case 5: self = .medium
        case 6...9: self = .low
        default: return nil
        }
    }

    /// The priority a word names (`high`, `medium`, `low`, or `h`, `m`, `l`, as taskwarrior
    /// writes them), ignoring case.
    public init?(name: String) {
        switch name.lowercased() {
        case "high", "h": self = .high
        case "medium", "m", "med": self = .medium
        case "low", "l": self = .low
        default: return nil
        }
    }

    /// `high`, `medium`, `low`.
    public var description: String {
        switch self {
        case .high: "high"
        case .medium: "medium"
        case .low: "low"
        }
    }

    /// High sorts first.
    public static func < (lhs: TaskPriority, rhs: TaskPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A wall-clock time of day a chore is due at (`09:30`), in the chore's time zone.
public struct TimeOfDay: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// 0–23.
    public let hour: Int
    /// 0–59.
    public let minute: Int

    /// A time of day; `nil` outside 00:00–23:59.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// The time `minutes` after midnight; `nil` outside 0–1439.
    public init?(minutesAfterMidnight minutes: Int) {
        guard (0..<1440).contains(minutes) else { return nil }
        self.init(hour: minutes / 60, minute: minutes % 60)
    }

    /// Minutes after midnight (what the database stores).
    public var minutesAfterMidnight: Int { hour * 60 + minute }

    /// `09:30`.
    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.minutesAfterMidnight < rhs.minutesAfterMidnight
    }

    private enum CodingKeys: String, CodingKey { case hour, minute }

    /// Decodes `{"hour": 9, "minute": 30}`, refusing a time outside 00:00–23:59.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let hour = try container.decode(Int.self, forKey: .hour)
        let minute = try container.decode(Int.self, forKey: .minute)
        guard let time = TimeOfDay(hour: hour, minute: minute) else {
            throw DecodingError.dataCorruptedError(
                forKey: .hour, in: container, debugDescription: "\(hour):\(minute) is not a time of day")
        }
        self = time
    }
}

extension HouseholdTask {
    /// When the chore is due as an instant: its day at its time of day in its time zone (the
    /// chore's own, else `calendar`'s), or the start of its day in `calendar`'s zone when it
    /// has no time. `nil` for an undated chore.
    public func dueInstant(calendar: Calendar) -> Date? {
        guard let dueDate else { return nil }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let day = utc.dateComponents([.year, .month, .day], from: dueDate)
        var local = calendar
        if dueTime != nil, let identifier = timeZone, let zone = TimeZone(identifier: identifier) {
            local.timeZone = zone
        }
        let components = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: dueTime?.hour ?? 0, minute: dueTime?.minute ?? 0)
        return local.date(from: components)
    }

    /// The instants of the chore's reminders (`reminders` minutes before it is due), earliest
    /// first; none for an undated chore.
    public func reminderInstants(calendar: Calendar) -> [Date] {
        guard let due = dueInstant(calendar: calendar) else { return [] }
        return reminders.map { due.addingTimeInterval(-Double($0) * 60) }.sorted()
    }
}

/// Reminder offsets: minutes before a chore is due.
public enum TaskReminder {
    /// The furthest a reminder may be from its due time: a year, in minutes.
    public static let maximumMinutes = 525_600
}
