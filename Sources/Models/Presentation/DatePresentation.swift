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

    /// A relative date for lists, in the locale's words, within a week either way (`now`,
    /// `5 min. ago`, `vor 3 Std.`, `3 日前`, `in 2 days`), else the short date.
    public func relative(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        guard abs(seconds) < 7 * 86_400 else { return shortDate(date) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // The style says where its anchor lies as seen from the date formatted: anchored at the
        // article's date, `now` reads "3 days ago". Under a minute either way is "now".
        let recent = abs(seconds) < 60
        let style = Date.AnchoredRelativeFormatStyle(
            anchor: recent ? now : date, presentation: recent ? .named : .numeric, unitsStyle: .abbreviated,
            locale: locale, calendar: calendar)
        return now.formatted(style)
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
