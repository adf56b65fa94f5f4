package import Foundation

/// Reads the dates commands accept (`--due`, `--since`), case ignored:
///
/// - `today`, `tomorrow`, `yesterday`;
/// - a weekday, `friday` or `fri` (`tue`/`tues`, `wed`/`weds`, `thu`/`thur`/`thurs` too): the
///   first such day after today, never today itself (taskwarrior's rule; say `today` for
///   today), so on a Friday `friday` is a week away; `next friday` is the same day;
/// - `in 3 days`, `in 2 weeks`, `in 1 month`, `in a year` (singular or plural, at most 9999):
///   the same as `+3d`, `+2w`, `+1m`, `+1y`; `in 0 days` is today, as `+0d` is;
/// - `end of week` (`eow`: the coming Sunday, today on a Sunday), `end of month` (`eom`: its
///   last day, today on that day), `end of year` (`eoy`: December 31); `end of the month` too;
/// - `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`, and offsets from today: `+3d`, `-2w`, `+1m`, `+1y`;
/// - any of these days followed by a time: `friday 18:00`, `tomorrow 9:30`,
///   `2026-11-27 09:30`, `next monday 7:05` (24-hour `H:MM` or `HH:MM`), or on a 12-hour clock
///   `9am`, `6pm`, `6:30pm`, `6 pm` (`12am` is midnight, `12pm` noon). A time alone is refused:
///   say `today 18:00`.
///
/// Everything is read in `calendar` and its time zone. A day without a time means the start
/// of the day (`+1d` is `tomorrow`, `-1d` is `yesterday`); months and years are calendar months
/// and years, clamped to the end of a shorter month (Jan 31 `+1m` is Feb 28 or 29). A time that
/// a daylight-saving change skips becomes the next time that exists.
package enum DateArgument {
    /// The largest offset count accepted (`+9999d`, `in 9999 days`).
    package static let maximumOffset = 9_999

    /// The instant `text` names: the start of the day when it gives no time.
    ///
    /// - Parameters:
    ///   - text: the argument as typed; case and surrounding spaces do not matter.
    ///   - now: the current time, which `today` and offsets start from.
    ///   - calendar: the user's calendar and time zone.
    /// - Throws: `DateArgumentError` saying what is wrong and what is accepted.
    package static func parse(_ text: String, now: Date, calendar: Calendar) throws(DateArgumentError) -> Date {
        try moment(text, now: now, calendar: calendar).date
    }

    /// The instant `text` names, and whether it gave a time of day (a chore's `--due` keeps
    /// only the day, and says so rather than drop a time).
    ///
    /// - Parameters:
    ///   - text: the argument as typed; case and surrounding spaces do not matter.
    ///   - now: the current time, which `today` and offsets start from.
    ///   - calendar: the user's calendar and time zone.
    /// - Throws: `DateArgumentError` saying what is wrong and what is accepted.
    package static func moment(_ text: String, now: Date, calendar: Calendar) throws(DateArgumentError)
        -> DueMoment
    {
        var words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        // `6 pm` is `6pm`.
        if words.count >= 2, let last = words.last, last == "am" || last == "pm",
            words[words.count - 2].first?.isNumber == true
        {
            words[words.count - 2] += last
            words.removeLast()
        }
        guard let last = words.last, TypedTime.looksLikeTime(last) else {
            return try day(words, text, now: now, calendar: calendar)
        }
        guard words.count >= 2 else {
            throw DateArgumentError(input: text, reason: "a time needs a day before it, like today \(last)")
        }
        let time = try TypedTime(last, text)
        let day = try day(Array(words.dropLast()), text, now: now, calendar: calendar)
        guard !day.hasTime else {
            throw DateArgumentError(input: text, reason: "it gives two times; give the day and one time")
        }
        var components = calendar.dateComponents([.era, .year, .month, .day], from: day.date)
        components.hour = time.hour
        components.minute = time.minute
        guard let date = calendar.date(from: components) else {
            throw DateArgumentError(input: text, reason: "the date is out of range")
        }
        return DueMoment(date: date, hasTime: true)
    }

    /// The day (or, for `YYYY-MM-DDTHH:MM`, the instant) `words` name.
    private static func day(_ words: [String], _ text: String, now: Date, calendar: Calendar)
        throws(DateArgumentError) -> DueMoment
    {
        let today = calendar.startOfDay(for: now)
        let input = words.joined(separator: " ")
        func startOfDay(_ date: Date) -> DueMoment { DueMoment(date: date, hasTime: false) }
        switch input {
        case "today": return startOfDay(today)
        case "tomorrow": return startOfDay(try offset(1, .day, from: today, text, calendar))
        case "yesterday": return startOfDay(try offset(-1, .day, from: today, text, calendar))
        default: break
        }
        if let first = input.first, words.count == 1, first == "+" || first == "-" {
            return startOfDay(try relative(input, from: today, text, calendar))
        }
        if input.first?.isNumber == true, words.count == 1 {
            let date = try absolute(input, text, calendar)
            return DueMoment(date: date, hasTime: input.contains("t"))
        }
        if let date = try dayWords(words, from: today, text, calendar) { return startOfDay(date) }
        throw DateArgumentError(input: text, reason: unknownReason(words))
    }

    /// `+3d`, `-2w`, `+1m`, `+1y`.
    private static func relative(
        _ input: String, from today: Date, _ text: String, _ calendar: Calendar
    ) throws(DateArgumentError) -> Date {
        let sign = input.first == "-" ? -1 : 1
        let body = input.dropFirst()
        guard let unit = body.last, let count = number(body.dropLast()) else {
            throw DateArgumentError(input: text, reason: DateArgumentError.accepted)
        }
        guard count <= maximumOffset else {
            throw DateArgumentError(input: text, reason: "an offset is at most \(maximumOffset) units")
        }
        switch unit {
        case "d": return try offset(sign * count, .day, from: today, text, calendar)
        case "w": return try offset(sign * count * 7, .day, from: today, text, calendar)
        case "m": return try offset(sign * count, .month, from: today, text, calendar)
        case "y": return try offset(sign * count, .year, from: today, text, calendar)
        default:
            throw DateArgumentError(
                input: text, reason: "the unit \"\(unit)\" is not one of d (days), w (weeks), m (months), y (years)")
        }
    }

    static func offset(
        _ value: Int, _ component: Calendar.Component, from today: Date, _ text: String, _ calendar: Calendar
    ) throws(DateArgumentError) -> Date {
        guard let date = calendar.date(byAdding: component, value: value, to: today) else {
            throw DateArgumentError(input: text, reason: "the date is out of range")
        }
        return date
    }

    /// `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM`.
    private static func absolute(_ input: String, _ text: String, _ calendar: Calendar) throws(DateArgumentError)
        -> Date
    {
        let halves = input.split(separator: "t", omittingEmptySubsequences: false)
        let dateParts = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard halves.count <= 2, dateParts.count == 3, dateParts[0].count == 4,
            (1...2).contains(dateParts[1].count), (1...2).contains(dateParts[2].count),
            let year = number(dateParts[0]), let month = number(dateParts[1]), let day = number(dateParts[2])
        else { throw DateArgumentError(input: text, reason: DateArgumentError.accepted) }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0)
        if halves.count == 2 {
            let timeParts = halves[1].split(separator: ":", omittingEmptySubsequences: false)
            guard timeParts.count == 2, (1...2).contains(timeParts[0].count), timeParts[1].count == 2,
                let hour = number(timeParts[0]), let minute = number(timeParts[1])
            else { throw DateArgumentError(input: text, reason: "the time must be HH:MM, like 2026-11-21T09:30") }
            guard hour <= 23 else {
                throw DateArgumentError(input: text, reason: "there is no hour \(hour) (00 to 23)")
            }
            guard minute <= 59 else {
                throw DateArgumentError(input: text, reason: "there is no minute \(minute) (00 to 59)")
            }
            components.hour = hour
            components.minute = minute
        }
        guard year >= 1 else { throw DateArgumentError(input: text, reason: "there is no year 0") }
        guard (1...12).contains(month) else {
            throw DateArgumentError(input: text, reason: "there is no month \(month) (01 to 12)")
        }
        guard let firstOfMonth = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
            let days = calendar.range(of: .day, in: .month, for: firstOfMonth)
        else { throw DateArgumentError(input: text, reason: "the date is out of range") }
        guard days.contains(day) else {
            throw DateArgumentError(
                input: text, reason: "month \(dateParts[1]) of \(dateParts[0]) has \(days.count) days, not \(day)")
        }
        guard let date = calendar.date(from: components) else {
            throw DateArgumentError(input: text, reason: "the date is out of range")
        }
        return date
    }

    /// A run of ASCII digits as a number (`Int("+5")` would accept the sign).
    static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}

/// An instant a date argument names, and whether the text gave its time of day.
package struct DueMoment: Sendable, Equatable {
    /// The instant: the start of the day in the calendar's time zone when no time was given.
    package var date: Date
    /// Whether the text gave a time (`friday 18:00`, `2026-11-27T09:30`).
    package var hasTime: Bool

    package init(date: Date, hasTime: Bool) {
        self.date = date
        self.hasTime = hasTime
    }
}

/// A date argument that could not be read, with the reason.
package struct DateArgumentError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    package let input: String
    /// What is wrong, or what is accepted.
    package let reason: String

    static let accepted =
        "use today, tomorrow, yesterday, a weekday (friday, next friday), in 3 days, end of week, "
        + "end of month (eom), end of year, YYYY-MM-DD, YYYY-MM-DDTHH:MM, or an offset like +3d, -2w, +1m, +1y; "
        + "a time may follow a day (friday 18:00, tomorrow 9am)"

    /// `"2026-02-30" is not a date: month 02 of 2026 has 28 days, not 30`.
    package var description: String { "\"\(input)\" is not a date: \(reason)" }

    /// The same line as `description`.
    package var errorDescription: String? { description }
}
