import Foundation
internal import Models

/// The date shapes feeds publish that are neither RFC 822 nor RFC 3339, rewritten into RFC 822
/// order: month before day (`Mar 13, 2021 09:00:00 GMT`), C's `asctime` (`Sat Mar 13
/// 09:00:00 2021`), the year first in numbers (`2020/1/10 14:33:00`, `2020-1-10T14:33Z`),
/// zones written `GMT+1` or `UTC-05:00`, a trailing `(UTC)`, and 12-hour times (`9:00 PM`).
extension FeedDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `2020/1/10 14:33:00 JST` as `10 jan 2020 14:33:00 JST`: a four-digit year, a month and a
    /// day of one or two digits, separated alike by `/`, `-` or `.`, then (after a space or a
    /// `T`) whatever RFC 822 reads. `nil` when the text does not start so.
    static func yearFirstForm(of text: some StringProtocol) -> String? {
        let bytes = Array(text.utf8)
        func number(from start: Int, maxLength: Int) -> (value: Int, end: Int)? {
            var end = start
            var value = 0
            while end < bytes.count, end - start < maxLength, bytes[end] >= 0x30, bytes[end] <= 0x39 {
                value = value * 10 + Int(bytes[end] - 0x30)
                end += 1
            }
            return end > start ? (value, end) : nil
        }
        guard let year = number(from: 0, maxLength: 4), year.end == 4, bytes.count > 5 else { return nil }
        let separator = bytes[4]
        guard separator == UInt8(ascii: "/") || separator == UInt8(ascii: "-") || separator == UInt8(ascii: "."),
            let month = number(from: 5, maxLength: 2), (1...12).contains(month.value),
            month.end < bytes.count, bytes[month.end] == separator,
            let day = number(from: month.end + 1, maxLength: 2)
        else { return nil }
        var rest = bytes[day.end...]
        if let first = rest.first {
            guard first == 0x20 || first == 0x09 || first | 0x20 == UInt8(ascii: "t") else { return nil }
            rest = rest.dropFirst()
        }
        let time = String(decoding: rest, as: UTF8.self)
        return "\(day.value) \(months[month.value - 1]) \(year.value)" + (time.isEmpty ? "" : " " + time)
    }

    /// The same date as an RFC 822 string, or `nil` when the text has no day, month and year.
    static func rfc822Form(of input: some StringProtocol) -> String? {
        let text = Substring(input)
        var day: Substring?
        var month: Substring?
        var year: Substring?
        var time: String?
        var zone: String?
        var meridian: Substring?
        for token in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }) {
            if token.hasPrefix("(") { continue }
            let lower = token.lowercased()
            if token.allSatisfy(\.isLetter) {
                if month == nil, lower.count >= 3, months.contains(String(lower.prefix(3))), time == nil {
                    month = token
                } else if lower == "am" || lower == "pm" {
                    meridian = token
                } else if time != nil {
                    zone = String(token)
                }
            } else if token.contains(":"), token.first?.isNumber == true {
                time = String(token)
            } else if token.first == "+" || token.first == "-" {
                zone = String(token)
            } else if let sign = token.firstIndex(where: { $0 == "+" || $0 == "-" }),
                token[..<sign].allSatisfy(\.isLetter)
            {
                zone = numericZone(token[sign...])
            } else if token.allSatisfy(\.isNumber) {
                if token.count <= 2, day == nil {
                    day = token
                } else {
                    year = token
                }
            }
        }
        guard let day, let month, let year else { return nil }
        if let clock = time, let meridian { time = twentyFourHour(clock, isPM: meridian.lowercased() == "pm") }
        return [String(day), String(month), String(year), time, zone].compactMap { $0 }.joined(separator: " ")
    }

    /// The date with its parenthesized part (`(JST)`, `(Japan Standard Time)`) dropped, and
    /// the zone it names written after the time when the date gives none before it; `nil` when
    /// there are no parentheses.
    static func withParenthesizedZone(_ text: Substring) -> String? {
        guard let open = text.utf8.firstIndex(of: UInt8(ascii: "(")),
            let close = text.utf8[open...].firstIndex(of: UInt8(ascii: ")"))
        else { return nil }
        let before = text[..<open].trimmingCharacters(in: .whitespaces)
        let inside = text[text.index(after: open)..<close].split(separator: " ")
        guard let last = before.split(whereSeparator: { $0 == " " || $0 == "," }).last else { return nil }
        let lower = last.lowercased()
        let hasZone =
            last.first == "+" || last.first == "-" || lower.hasPrefix("gmt") || lower.hasPrefix("utc")
            || (last.allSatisfy(\.isLetter) && lower != "am" && lower != "pm" && before.contains(":"))
        guard !hasZone, !inside.isEmpty else { return before }
        let zone: String
        if inside.count == 1, let word = inside.first {
            zone = String(word)
        } else if inside.allSatisfy({ $0.allSatisfy(\.isLetter) }) {
            // `Pacific Standard Time` as `PST`; `Coordinated Universal Time` is UTC.
            let initials = String(inside.compactMap(\.first)).uppercased()
            zone = initials == "CUT" ? "UTC" : initials
        } else {
            return before
        }
        return before + " " + zone
    }

    /// `+1`, `-5`, `+05:30`, `+0530` as `±HHMM`.
    private static func numericZone(_ text: Substring) -> String? {
        guard let sign = text.first else { return nil }
        let digits = text.dropFirst().filter(\.isNumber)
        switch digits.count {
        case 1, 2: return "\(sign)\(digits.count == 1 ? "0" : "")\(digits)00"
        case 4: return "\(sign)\(digits)"
        default: return nil
        }
    }

    private static func twentyFourHour(_ time: String, isPM: Bool) -> String {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard let first = parts.first, let hour = Int(first), hour <= 12 else { return time }
        let converted = isPM ? (hour % 12) + 12 : hour % 12
        return ([String(converted)] + parts.dropFirst().map(String.init)).joined(separator: ":")
    }
}
