import Foundation
import Markup

/// DATE and DATE-TIME values (RFC 5545 3.3.4, 3.3.5).
enum ICalendarDate {
    private static let utc = TimeZone(identifier: "UTC") ?? .gmt

    /// `yyyyMMdd'T'HHmmss'Z'`.
    static func utcStamp(_ date: Date) -> String {
        let parts = gregorian(in: utc).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
    }

    /// `yyyyMMdd` of a due day (00:00 UTC).
    static func date(_ day: Date) -> String {
        let parts = gregorian(in: utc).dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The due day a `DUE` or `DTSTART` names (00:00 UTC of it); `nil` when it is not a DATE
    /// or DATE-TIME.
    static func day(of property: ICalendar.Property, calendar: Calendar) -> Date? {
        guard let parsed = parse(property.value) else { return nil }
        if parsed.isUTC, let instant = instant(property.value) {
            let parts = calendar.dateComponents([.year, .month, .day], from: instant)
            return gregorian(in: utc).date(from: DateComponents(year: parts.year, month: parts.month, day: parts.day))
        }
        return gregorian(in: utc).date(from: DateComponents(year: parsed.year, month: parsed.month, day: parsed.day))
    }

    /// The instant a UTC DATE-TIME names (`COMPLETED`, `X-TIDINGS-COMPLETED`); a DATE or a
    /// floating time is read as UTC.
    static func instant(_ value: String) -> Date? {
        guard let parsed = parse(value) else { return nil }
        return gregorian(in: utc).date(
            from: DateComponents(
                year: parsed.year, month: parsed.month, day: parsed.day, hour: parsed.time?.hour ?? 0,
                minute: parsed.time?.minute ?? 0, second: parsed.time?.second ?? 0))
    }

    /// `property` (a DATE or DATE-TIME) moved by `days` days, keeping its form, time of day
    /// and parameters.
    /// The whole days from the start of one day to the start of another (a daylight-saving
    /// change rounds away).
    static func days(from start: Date, to end: Date) -> Int {
        Int((end.timeIntervalSince(start) / 86_400).rounded())
    }

    static func shifted(_ property: ICalendar.Property, byDays days: Int, calendar: Calendar) -> ICalendar.Property {
        guard days != 0, let parsed = parse(property.value) else { return property }
        let utcCalendar = gregorian(in: utc)
        if parsed.isUTC, let instant = instant(property.value) {
            // The same wall-clock time, `days` days later where the user is.
            let moved = calendar.date(byAdding: .day, value: days, to: instant) ?? instant
            return ICalendar.Property(name: property.name, parameters: property.parameters, value: utcStamp(moved))
        }
        guard let day = utcCalendar.date(from: DateComponents(year: parsed.year, month: parsed.month, day: parsed.day)),
            let moved = utcCalendar.date(byAdding: .day, value: days, to: day)
        else { return property }
        var value = date(moved)
        if let time = parsed.time { value += String(format: "T%02d%02d%02d", time.hour, time.minute, time.second) }
        return ICalendar.Property(name: property.name, parameters: property.parameters, value: value)
    }

    /// The time of a DATE or DATE-TIME value (`nil` for a DATE) and whether it is UTC; `nil`
    /// when the value is neither.
    static func components(_ value: String) -> (time: (hour: Int, minute: Int, second: Int)?, isUTC: Bool)? {
        parse(value).map { ($0.time, $0.isUTC) }
    }

    private struct Parsed {
        var year, month, day: Int
        var time: (hour: Int, minute: Int, second: Int)?
        var isUTC: Bool
    }

    /// `yyyyMMdd` or `yyyyMMdd'T'HHmmss` with an optional `Z`.
    private static func parse(_ value: String) -> Parsed? {
        let bytes = Array(value.trimmedWhitespace.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var result = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                result = result * 10 + Int(byte - 0x30)
            }
            return result
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), (1...12).contains(month),
            (1...31).contains(day), year >= 1
        else { return nil }
        if bytes.count == 8 { return Parsed(year: year, month: month, day: day, time: nil, isUTC: false) }
        guard
            bytes.count == 15
                || (bytes.count == 16 && (bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z"))),
            bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15), hour < 24,
            minute < 60, second <= 60
        else { return nil }
        return Parsed(
            year: year, month: month, day: day, time: (hour, minute, min(second, 59)), isUTC: bytes.count == 16)
    }

    private static func gregorian(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
