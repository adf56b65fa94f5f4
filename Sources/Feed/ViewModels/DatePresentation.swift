public import Foundation

/// Dates and excerpts for lists and detail views, in the user's locale and time zone.
///
/// Formats come from templates (`setLocalizedDateFormatFromTemplate`), so the same template
/// reads `15 October` in en_GB, `October 15` in en_US and `15 oktober` in nl. Formatters are
/// built once per presentation, never per call.
public struct DatePresentation: Sendable {
    /// The locale used.
    public let locale: Locale
    /// The time zone used.
    public let timeZone: TimeZone
    private let dayMonth: DateFormatter
    private let full: DateFormatter
    private let short: DateFormatter

    /// Creates a presentation for a locale and time zone.
    public init(locale: Locale = .autoupdatingCurrent, timeZone: TimeZone = .autoupdatingCurrent) {
        self.locale = locale
        self.timeZone = timeZone
        dayMonth = Self.formatter("dMMMM", locale: locale, timeZone: timeZone)
        full = Self.formatter("EEEEdMMMMyyyyjmm", locale: locale, timeZone: timeZone)
        short = Self.formatter("dMMMyyyy", locale: locale, timeZone: timeZone)
    }

    /// Day and month (`15 October`, `October 15`, `15 oktober`).
    public func dayAndMonth(_ date: Date) -> String { dayMonth.string(from: date) }

    /// Weekday, date and time, for a detail view.
    public func fullDate(_ date: Date) -> String { full.string(from: date) }

    /// A short date with the year (`15 Oct 2026`).
    public func shortDate(_ date: Date) -> String { short.string(from: date) }

    /// A relative date for lists: `just now`, `5 min ago`, `3 h ago`, `2 d ago`, else the short
    /// date. Future dates (clock skew) read `just now`.
    public func relative(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(Int(seconds / 60)) min ago"
        case ..<86_400: return "\(Int(seconds / 3600)) h ago"
        case ..<(7 * 86_400): return "\(Int(seconds / 86_400)) d ago"
        default: return shortDate(date)
        }
    }

    /// The first `limit` characters of plain text, cut at a word with an ellipsis, on one line.
    public static func excerpt(_ text: String, limit: Int = 140) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        var result = ""
        for word in words {
            let next = result.isEmpty ? String(word) : result + " " + word
            if next.count > limit {
                return result.isEmpty ? String(word.prefix(max(0, limit - 1))) + "…" : result + "…"
            }
            result = next
        }
        return result
    }

    private static func formatter(_ template: String, locale: Locale, timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }
}
