public import Foundation

/// RFC 822 / RFC 1123 dates (RSS, HTTP headers, OPML) read and written without a
/// `DateFormatter`.
public enum RFC822 {
    /// RFC 822 / RFC 1123: `Sat, 13 Mar 2021 09:00:00 GMT`, with or without the weekday
    /// (any spelling: `Tues,`), one- or two-digit days, full or short month names, two- or
    /// four-digit years, optional seconds, named zones (GMT, UT, Z, EST … PDT, and the common
    /// abbreviations of `namedZones`), numeric zones (`+0530`, `-08:00`) and none (read as UTC).
    /// A zone name nobody knows is read as UTC.
    public static func date(from string: some StringProtocol) -> Date? { reading(string)?.date }

    /// The date, and the zone name it gave that is not in `namedZones` and was read as UTC.
    package static func reading(_ string: some StringProtocol) -> (date: Date, unknownZone: String?)? {
        ByteScanner.reading(string, reading(in:))
    }

    /// `reading(_:)` of a substring, which callers in other modules reach without a generic
    /// call (a date is read per item, and the generic path showed in reading one).
    package static func reading(_ string: Substring) -> (date: Date, unknownZone: String?)? {
        var string = string
        return string.withUTF8(reading(in:))
    }

    private static func reading(in bytes: UnsafeBufferPointer<UInt8>) -> (date: Date, unknownZone: String?)? {
        var scanner = ByteScanner(bytes)
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
            return scanner.isAtEnd ? (Date(timeIntervalSince1970: seconds), nil) : nil
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
        guard let (offset, unknownZone) = zone(&scanner) else { return nil }
        return (Date(timeIntervalSince1970: seconds - Double(offset)), unknownZone)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// A word of ASCII letters, lower-cased: its first eight letters packed into an integer
    /// (the first in the highest byte used), and how many letters it has.
    private struct Word: Equatable {
        var packed: UInt64 = 0
        var count = 0

        init(_ text: String) {
            for byte in text.utf8 { append(byte) }
        }

        init() {}

        mutating func append(_ byte: UInt8) {
            if count < 8 { packed = packed << 8 | UInt64(byte | 0x20) }
            count += 1
        }

        /// The first three letters, packed alike.
        var prefix3: UInt64? {
            count >= 3 ? packed >> (8 * UInt64(Swift.min(count, 8) - 3)) : nil
        }
    }

    private static func word(_ scanner: inout ByteScanner) -> Word {
        var word = Word()
        while let byte = scanner.peek, isLetter(byte) {
            word.append(byte)
            _ = scanner.take(byte)
        }
        return word
    }

    private static func skipSeparators(_ scanner: inout ByteScanner) {
        while let byte = scanner.peek,
            byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ",")
        {
            _ = scanner.take(byte)
        }
    }

    private static let months: [UInt64] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    .map { Word($0).packed }

    private static func monthNumber(_ word: Word) -> Int? {
        guard let prefix = word.prefix3 else { return nil }
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    /// Zone abbreviations and their offsets from UTC in minutes: RFC 822's (GMT, UT, Z and the
    /// North American zones) and those feeds commonly use besides. Where an abbreviation names
    /// more than one zone, the common reading in feeds is taken:
    /// - `IST` is India (+05:30), not Irish Summer (+01:00) or Israel (+02:00);
    /// - `BST` is British Summer (+01:00), not Bangladesh (+06:00);
    /// - `CST` is US Central (-06:00, as RFC 822 says), not China (+08:00) or Cuba;
    /// - `AST`/`ADT` are Atlantic (-04:00/-03:00), not Arabia (+03:00);
    /// - `MEZ`/`MESZ` are the German names of CET/CEST.
    /// Any other name is read as UTC, and reported (`reading(_:)`).
    private static let namedZones: [UInt64: Int] = Dictionary(
        uniqueKeysWithValues: namedZoneList.map { (Word($0.key).packed, $0.value) })

    private static let namedZoneList: KeyValuePairs<String, Int> = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "wet": 0,
        "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420, "mdt": -360, "pst": -480, "pdt": -420,
        "akst": -540, "akdt": -480, "hst": -600, "hdt": -540, "ast": -240, "adt": -180, "nst": -210, "ndt": -150,
        "brt": -180, "art": -180,
        "west": 60, "bst": 60, "cet": 60, "cest": 120, "met": 60, "mest": 120, "mez": 60, "mesz": 120,
        "wat": 60, "eet": 120, "eest": 180, "cat": 120, "sast": 120, "idt": 180, "eat": 180, "msk": 180,
        "pkt": 300, "ist": 330, "npt": 345, "ict": 420, "wib": 420, "hkt": 480, "sgt": 480, "myt": 480,
        "pht": 480, "awst": 480, "wita": 480, "wit": 540, "jst": 540, "kst": 540, "acst": 570, "acdt": 630,
        "aest": 600, "aedt": 660, "nzst": 720, "nzdt": 780,
    ]

    /// The zone's offset in seconds, and its name when it is not one `namedZones` knows; `nil`
    /// when what follows the time is not a zone (a malformed offset, or `AM`/`PM`, which
    /// `FeedDate` reads).
    private static func zone(_ scanner: inout ByteScanner) -> (Int, String?)? {
        guard let byte = scanner.peek else { return (0, nil) }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
            _ = scanner.take(byte)
            guard let hours = scanner.digits(exactly: 2) else { return nil }
            _ = scanner.take(UInt8(ascii: ":"))
            let minutes = scanner.digits(exactly: 2) ?? 0
            let offset = hours * 3600 + minutes * 60
            return (byte == UInt8(ascii: "-") ? -offset : offset, nil)
        }
        let start = scanner.offset
        let name = word(&scanner)
        if name.count == 0 { return (0, nil) }
        if name == Word("am") || name == Word("pm") { return nil }
        guard name.count <= 8, let minutes = namedZones[name.packed] else {
            return (0, String(decoding: scanner.bytes(from: start), as: UTF8.self).uppercased())
        }
        return (minutes * 60, nil)
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (the HTTP date form, RFC 9110 §5.6.7), in UTC.
    public static func string(from date: Date) -> String {
        let total = CivilDate.clampedSeconds(date)
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
