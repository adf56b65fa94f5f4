package import Foundation
internal import Models

/// Reads the dates feeds publish: RFC 822 (RSS) and RFC 3339 / ISO 8601 (Atom, JSON Feed,
/// Dublin Core), including the broken variants real feeds carry. No `DateFormatter` is
/// involved, so parsing stays cheap for feeds with thousands of items.
package enum FeedDate {
    /// Parses either family, deciding by the first character; `nil` when neither reads it.
    package static func date(from string: some StringProtocol) -> Date? { reading(string)?.date }

    /// The date, and the zone name it gave that no table knows and was read as UTC (for a
    /// warning).
    static func reading(_ string: some StringProtocol) -> (date: Date, unknownZone: String?)? {
        // Leading white space skipped byte by byte (a CR LF is one Character, but two bytes).
        var trimmed = Substring(string)
        while let byte = trimmed.utf8.first, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            trimmed = Substring(trimmed.utf8.dropFirst())
        }
        let utf8 = trimmed.utf8
        guard let first = utf8.first else { return nil }
        if first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            if utf8.dropFirst(4).first == UInt8(ascii: "-"), let date = RFC3339.date(from: trimmed) {
                return (date, nil)
            }
            // `2020/1/10 14:33:00`: year first, in numbers.
            if let rewritten = yearFirstForm(of: trimmed) { return rfc822Reading(Substring(rewritten)) }
        }
        return rfc822Reading(trimmed)
    }

    private static func rfc822Reading(_ text: Substring) -> (date: Date, unknownZone: String?)? {
        // `09:41:01 (JST)`, `+0900 (JST)`, `GMT+0900 (Japan Standard Time)`: a zone named in
        // parentheses is the date's zone when it gives no other; else a comment.
        if let rewritten = withParenthesizedZone(text) { return rfc822Reading(Substring(rewritten)) }
        // `GMT+1` would read as GMT with the offset ignored: such zones go the long way round.
        if !hasOffsetAfterZoneName(text), let reading = RFC822.reading(text) { return reading }
        return rfc822Form(of: text).flatMap { RFC822.reading($0) }
    }

    /// The warning for dates given in a zone no table knows.
    static func unknownZoneWarning(_ zone: String) -> String {
        "dates in the time zone \"\(zone)\", which this reader does not know, were read as UTC"
    }

    /// Whether a zone name is followed by an offset (`GMT+1`, `UTC-05:00`).
    private static func hasOffsetAfterZoneName(_ text: some StringProtocol) -> Bool {
        var window: UInt32 = 0  // the last three bytes, lower-cased
        for byte in text.utf8 {
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                if window == 0x67_6D_74 || window == 0x75_74_63 { return true }  // "gmt", "utc"
            }
            window = (window << 8 | UInt32(byte | 0x20)) & 0xFF_FFFF
        }
        return false
    }

    /// RFC 822 / RFC 1123 with the broken variants feeds carry; see `RFC822.date(from:)`.
    package static func rfc822(_ string: some StringProtocol) -> Date? { RFC822.date(from: string) }
}
