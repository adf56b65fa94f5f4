public import Foundation

/// RFC 822 / RFC 1123 dates (RSS, HTTP headers, OPML) read and written without a
/// `DateFormatter`.
public enum RFC822 {
    /// RFC 822 / RFC 1123: `Sat, 13 Mar 2021 09:00:00 GMT`, with or without the weekday
    /// (any spelling: `Tues,`), one- or two-digit days, full or short month names, two- or
    /// four-digit years, optional seconds, named zones (GMT, UT, Z, EST … PDT), numeric zones
    /// (`+0530`, `-08:00`) and none (read as UTC).
    public static func date(from string: some StringProtocol) -> Date? {
        var scanner = ByteScanner(Array(string.utf8))
        scanner.skipSpaces()
        if let byte = scanner.peek, isLetter(byte) {
            _ = word(&scanner)
            _ = scanner.take(UInt8(ascii: ","))
            scanner.skipSpaces()
        }
        guard let day = scanner.digits(upTo: 2), (1...31).contains(day) else { return nil }
        skipSeparators(&scanner)
        guard let month = monthNumber(word(&scanner)) else { return nil }
        skipSeparators(&scanner)
        let yearStart = scanner.offset
        guard var year = scanner.digits(upTo: 4) else { return nil }
        // Only a two-digit year is windowed: `0021` is the year 21.
        if scanner.offset - yearStart <= 2 { year += year < 50 ? 2000 : 1900 }
        guard day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        var seconds = Double(CivilDate.daysSinceEpoch(year: year, month: month, day: day)) * 86_400

        scanner.skipSpaces()
        guard let hour = scanner.digits(upTo: 2) else {
            return scanner.isAtEnd ? Date(timeIntervalSince1970: seconds) : nil
        }
        guard scanner.take(UInt8(ascii: ":")), let minute = scanner.digits(upTo: 2), hour <= 24, minute <= 59 else {
            return nil
        }
        var second = 0
        if scanner.take(UInt8(ascii: ":")) {
            guard let value = scanner.digits(upTo: 2), value <= 60 else { return nil }
            second = value
        }
        if scanner.take(UInt8(ascii: ".")) { _ = scanner.digits(upTo: 9) }
        seconds += Double(hour * 3600 + minute * 60 + second)
        scanner.skipSpaces()
        guard let offset = zone(&scanner) else { return nil }
        return Date(timeIntervalSince1970: seconds - Double(offset))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func word(_ scanner: inout ByteScanner) -> [UInt8] {
        var letters: [UInt8] = []
        while let byte = scanner.peek, isLetter(byte) {
            letters.append(byte | 0x20)
            _ = scanner.take(byte)
        }
        return letters
    }

    private static func skipSeparators(_ scanner: inout ByteScanner) {
        while let byte = scanner.peek,
            byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ",")
        {
            _ = scanner.take(byte)
        }
    }

    private static let months: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    .map { Array($0.utf8) }

    private static func monthNumber(_ word: [UInt8]) -> Int? {
        guard word.count >= 3 else { return nil }
        let prefix = Array(word.prefix(3))
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    /// Named North American zones; everything else named is read as UTC.
    private static let namedZones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
    ]

    private static func zone(_ scanner: inout ByteScanner) -> Int? {
        guard let byte = scanner.peek else { return 0 }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
            _ = scanner.take(byte)
            guard let hours = scanner.digits(exactly: 2) else { return nil }
            _ = scanner.take(UInt8(ascii: ":"))
            let minutes = scanner.digits(exactly: 2) ?? 0
            let offset = hours * 3600 + minutes * 60
            return byte == UInt8(ascii: "-") ? -offset : offset
        }
        let name = String(decoding: word(&scanner), as: UTF8.self)
        return (namedZones[name] ?? 0) * 3600
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (the HTTP date form, RFC 9110 §5.6.7), in UTC.
    public static func string(from date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total.floorDivided(by: 86_400)
        let seconds = total - days * 86_400
        let (year, month, day) = CivilDate.civil(fromDaysSinceEpoch: days)
        let weekday = weekdays[(days + 4).floorModulo(7)]  // 1970-01-01 was a Thursday
        return "\(weekday), \(CivilDate.pad(day, 2)) \(monthNames[month - 1]) \(CivilDate.pad(year, 4)) "
            + "\(CivilDate.pad(seconds / 3600, 2)):\(CivilDate.pad(seconds % 3600 / 60, 2)):\(CivilDate.pad(seconds % 60, 2)) GMT"
    }
}

extension Int {
    /// The remainder of division rounding toward negative infinity (never negative here).
    fileprivate func floorModulo(_ divisor: Int) -> Int { self - floorDivided(by: divisor) * divisor }
}
