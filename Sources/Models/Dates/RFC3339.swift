public import Foundation

/// Fast RFC 3339 / ISO 8601 parsing and formatting without a `DateFormatter`.
///
/// Parsing is liberal in what real feeds and APIs publish: `T`, `t` or a space between date
/// and time, optional seconds, optional fraction of any length, `Z`, `z`, `±HH:MM`, `±HHMM`,
/// `±HH` or no zone at all (read as UTC), and a bare date (`2021-03-13`, midnight UTC).
/// Formatting always writes UTC with whole seconds: `2021-03-13T09:00:00Z`.
public enum RFC3339 {
    /// Parses a timestamp; `nil` when the text is not one.
    public static func date(from string: some StringProtocol) -> Date? {
        ByteScanner.reading(string, date(in:))
    }

    /// `date(from:)` of a substring, without a generic call.
    package static func date(from string: Substring) -> Date? {
        var string = string
        return string.withUTF8(date(in:))
    }

    private static func date(in bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = ByteScanner(bytes)
        scanner.skipSpaces()
        guard let year = scanner.digits(exactly: 4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.digits(exactly: 2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.digits(exactly: 2),
            (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }

        var seconds = Double(CivilDate.daysSinceEpoch(year: year, month: month, day: day)) * 86_400
        scanner.skipSpaces()
        guard !scanner.isAtEnd else { return Date(timeIntervalSince1970: seconds) }

        guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.previousWasSpace,
            let hour = scanner.digits(exactly: 2), scanner.take(UInt8(ascii: ":")),
            let minute = scanner.digits(exactly: 2), hour <= 24, minute <= 59
        else { return nil }
        var second = 0
        if scanner.take(UInt8(ascii: ":")) {
            guard let value = scanner.digits(exactly: 2), value <= 60 else { return nil }
            second = value
        }
        seconds += Double(hour * 3600 + minute * 60 + second)
        if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
            guard let fraction = scanner.fraction() else { return nil }
            seconds += fraction
        }
        scanner.skipSpaces()
        guard let offset = scanner.zoneOffset() else { return nil }
        scanner.skipSpaces()
        guard scanner.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: seconds - Double(offset))
    }

    /// Formats a date as `YYYY-MM-DDTHH:MM:SSZ` in UTC, dropping any fraction of a second. A
    /// date outside years 0001-9999 (one another program wrote into the database: 1e300,
    /// infinity) is shown as the nearest of those bounds, NaN as the epoch; none traps.
    public static func string(from date: Date) -> String {
        let total = CivilDate.clampedSeconds(date)
        let days = total.floorDivided(by: 86_400)
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = CivilDate.civil(fromDaysSinceEpoch: days)
        return CivilDate.pad(year, 4) + "-" + CivilDate.pad(month, 2) + "-" + CivilDate.pad(day, 2)
            + "T" + CivilDate.pad(secondsOfDay / 3600, 2) + ":" + CivilDate.pad(secondsOfDay % 3600 / 60, 2)
            + ":" + CivilDate.pad(secondsOfDay % 60, 2) + "Z"
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms).
package enum CivilDate {
    /// Seconds since the epoch from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z: the dates
    /// the formats here write.
    package static let representableSeconds: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// `seconds` within `representableSeconds`; `nil` for NaN. A stored value another program
    /// wrote (1e300, infinity) becomes the nearest bound instead of trapping later.
    package static func bounded(_ seconds: Double) -> Double? {
        seconds.isNaN ? nil : min(max(seconds, representableSeconds.lowerBound), representableSeconds.upperBound)
    }

    /// The whole seconds since the epoch of `date`, within years 0001-9999 (NaN is 0): a
    /// conversion of any stored value that never traps.
    package static func clampedSeconds(_ date: Date) -> Int {
        Int((bounded(date.timeIntervalSince1970) ?? 0).rounded(.down))
    }

    /// Days from 1970-01-01 to the given date.
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date that lies the given number of days after 1970-01-01.
    package static func civil(fromDaysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in a month of a year.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Zero-pads a non-negative number to `width` digits.
    package static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A forward-only reader over ASCII bytes, shared by the date parsers. It reads the text's
/// own storage (`reading(_:_:)`), so reading a date allocates nothing.
package struct ByteScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Whether the last `skipSpaces()` consumed at least one space.
    package private(set) var previousWasSpace = false

    /// Creates a scanner at the start of `bytes`, which must outlive it.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// `body` over the UTF-8 of `text`: its own storage when it is contiguous (a native
    /// string), a copy otherwise.
    package static func reading<Result>(
        _ text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// The bytes from `start` up to where the scanner stands.
    package func bytes(from start: Int) -> UnsafeBufferPointer<UInt8>.SubSequence { bytes[start..<index] }

    package var isAtEnd: Bool { index >= bytes.count }

    /// How many bytes have been read.
    package var offset: Int { index }

    /// The next byte, if any, without consuming it.
    package var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Consumes `byte` when it is next.
    package mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// Skips spaces and tabs, remembering whether there were any.
    package mutating func skipSpaces() {
        let start = index
        while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
        previousWasSpace = index > start
    }

    /// Reads exactly `count` ASCII digits as a number.
    package mutating func digits(exactly count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = bytes[index + offset]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += count
        return value
    }

    /// Reads one or more ASCII digits (at most `limit`) as a number.
    package mutating func digits(upTo limit: Int) -> Int? {
        var value = 0
        var count = 0
        while count < limit, let byte = peek, byte >= 0x30, byte <= 0x39 {
            value = value * 10 + Int(byte - 0x30)
            index += 1
            count += 1
        }
        return count > 0 ? value : nil
    }

    /// Reads the digits after a decimal point as a fraction of a second.
    mutating func fraction() -> Double? {
        var value = 0.0
        var scale = 0.1
        var count = 0
        while let byte = peek, byte >= 0x30, byte <= 0x39 {
            value += Double(byte - 0x30) * scale
            scale /= 10
            index += 1
            count += 1
        }
        return count > 0 ? value : nil
    }

    /// Reads `Z`, `±HH:MM`, `±HHMM` or `±HH` as seconds east of UTC; nothing at all is UTC.
    package mutating func zoneOffset() -> Int? {
        guard let byte = peek else { return 0 }
        if byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "z") {
            index += 1
            return 0
        }
        guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let hours = digits(exactly: 2) else { return nil }
        _ = take(UInt8(ascii: ":"))
        let minutes = digits(exactly: 2) ?? 0
        guard hours <= 23, minutes <= 59 else { return nil }
        let offset = hours * 3600 + minutes * 60
        return byte == UInt8(ascii: "-") ? -offset : offset
    }
}

extension Int {
    /// Division rounding toward negative infinity.
    package func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
