import Foundation
import Models

extension DateArgument {
    /// The day that weekday names, `in N units` and `end of …` name (the start of it); `nil` for
    /// words that are none of them.
    static func dayWords(_ words: [String], from today: Date, _ text: String, _ calendar: Calendar)
        throws(DateArgumentError) -> Date?
    {
        switch words.first {
        case "next" where words.count == 2:
            guard let weekday = Frequency.Weekday(spoken: words[1]) else { return nil }
            return try following(weekday, from: today, text, calendar)
        case "in":
            return try inUnits(Array(words.dropFirst()), from: today, text, calendar)
        case "end" where words.count >= 2 && words[1] == "of":
            let period = words.dropFirst(2).filter { $0 != "the" }.joined(separator: " ")
            return try end(of: period, from: today, text, calendar)
        case "eow": return try end(of: "week", from: today, text, calendar)
        case "eom": return try end(of: "month", from: today, text, calendar)
        case "eoy": return try end(of: "year", from: today, text, calendar)
        default:
            guard words.count == 1, let weekday = Frequency.Weekday(spoken: words[0]) else { return nil }
            return try following(weekday, from: today, text, calendar)
        }
    }

    /// Why `words` are no date: a close day word when there is one, else what is accepted.
    static func unknownReason(_ words: [String]) -> String {
        guard words.count == 1, let word = words.first,
            let near = Suggestion.nearest(
                to: word, in: ["today", "tomorrow", "yesterday"] + Frequency.Weekday.spokenNames.map(\.name))
        else { return DateArgumentError.accepted }
        return "did you mean \"\(near)\"? \(DateArgumentError.accepted)"
    }

    /// The first `weekday` after `today` (a week on when today is one).
    private static func following(
        _ weekday: Frequency.Weekday, from today: Date, _ text: String, _ calendar: Calendar
    ) throws(DateArgumentError) -> Date {
        let current = calendar.component(.weekday, from: today)
        let ahead = (weekday.calendarWeekday - current + 7) % 7
        return try offset(ahead == 0 ? 7 : ahead, .day, from: today, text, calendar)
    }

    /// `3 days`, `2 weeks`, `a month`, `1 year` after today.
    private static func inUnits(_ words: [String], from today: Date, _ text: String, _ calendar: Calendar)
        throws(DateArgumentError) -> Date
    {
        let example = "say in 3 days, in 2 weeks, in 1 month or in a year"
        guard words.count == 2 else { throw DateArgumentError(input: text, reason: example) }
        let count: Int
        if ["a", "an", "one"].contains(words[0]) {
            count = 1
        } else if let number = number(Substring(words[0])) {
            count = number
        } else {
            throw DateArgumentError(input: text, reason: "\"\(words[0])\" is not a whole number; \(example)")
        }
        guard count <= maximumOffset else {
            throw DateArgumentError(input: text, reason: "an offset is at most \(maximumOffset) units")
        }
        switch words[1] {
        case "day", "days": return try offset(count, .day, from: today, text, calendar)
        case "week", "weeks": return try offset(count * 7, .day, from: today, text, calendar)
        case "month", "months": return try offset(count, .month, from: today, text, calendar)
        case "year", "years": return try offset(count, .year, from: today, text, calendar)
        default:
            throw DateArgumentError(
                input: text, reason: "\"\(words[1])\" is not a unit (days, weeks, months or years)")
        }
    }

    /// The last day of the week (Sunday), month or year `today` is in.
    private static func end(of period: String, from today: Date, _ text: String, _ calendar: Calendar)
        throws(DateArgumentError) -> Date
    {
        switch period {
        case "week":
            let weekday = calendar.component(.weekday, from: today)
            return try offset((8 - weekday) % 7, .day, from: today, text, calendar)
        case "month", "year":
            guard let interval = calendar.dateInterval(of: period == "month" ? .month : .year, for: today) else {
                throw DateArgumentError(input: text, reason: "the date is out of range")
            }
            let last = try offset(-1, .day, from: interval.end, text, calendar)
            return calendar.startOfDay(for: last)
        default:
            throw DateArgumentError(
                input: text, reason: "there is no end of \"\(period)\": say end of week, end of month or end of year")
        }
    }
}

/// A time of day after a day word: `18:00`, `9:30`, `9am`, `6:30pm`.
struct TypedTime {
    var hour: Int
    var minute: Int

    /// Whether `word` is meant as a time (a digit first, then a colon or `am`/`pm`), so that a
    /// malformed one is refused as a time rather than as a day.
    static func looksLikeTime(_ word: String) -> Bool {
        guard word.first?.isNumber == true, !word.contains("-"), !word.contains("/") else { return false }
        return word.contains(":") || word.hasSuffix("am") || word.hasSuffix("pm")
    }

    init(_ word: String, _ text: String) throws(DateArgumentError) {
        let twelveHour = word.hasSuffix("am") || word.hasSuffix("pm")
        let clock = twelveHour ? word.dropLast(2) : Substring(word)
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        let shape = "the time must be HH:MM (24-hour) or like 9am or 6:30pm"
        guard (1...2).contains(parts.count), (1...2).contains(parts[0].count),
            parts.count == 2 ? parts[1].count == 2 : twelveHour,
            let hour = DateArgument.number(parts[0]),
            let minute = parts.count == 2 ? DateArgument.number(parts[1]) : 0
        else { throw DateArgumentError(input: text, reason: shape) }
        guard minute <= 59 else {
            throw DateArgumentError(input: text, reason: "there is no minute \(minute) (00 to 59)")
        }
        if twelveHour {
            guard (1...12).contains(hour) else {
                throw DateArgumentError(
                    input: text, reason: "there is no hour \(hour) on a 12-hour clock (1 to 12, then am or pm)")
            }
            self.hour = hour % 12 + (word.hasSuffix("pm") ? 12 : 0)
        } else {
            guard hour <= 23 else {
                throw DateArgumentError(input: text, reason: "there is no hour \(hour) (00 to 23)")
            }
            self.hour = hour
        }
        self.minute = minute
    }
}
