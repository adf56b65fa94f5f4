public import Foundation
internal import Models

/// Reads the dates feeds publish: RFC 822 (RSS) and RFC 3339 / ISO 8601 (Atom, JSON Feed,
/// Dublin Core), including the broken variants real feeds carry. No `DateFormatter` is
/// involved, so parsing stays cheap for feeds with thousands of items.
public enum FeedDate {
    /// Parses either family, deciding by the first character; `nil` when neither reads it.
    public static func date(from string: some StringProtocol) -> Date? {
        let trimmed = string.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = trimmed.first else { return nil }
        if first.isNumber, trimmed.count >= 10,
            trimmed.dropFirst(4).first == "-", let date = RFC3339.date(from: trimmed)
        {
            return date
        }
        return RFC822.date(from: trimmed)
    }

    /// RFC 822 / RFC 1123 with the broken variants feeds carry; see `RFC822.date(from:)`.
    public static func rfc822(_ string: some StringProtocol) -> Date? { RFC822.date(from: string) }
}
