import Chores
import Foundation
import Models

/// Reads `--every`'s words into a `Frequency`.
///
/// - `day`, `2 weeks`, `month`, `3 years`: a count (1 when left out) and a unit, by the task rules
///   (`Frequency.parse(count:unit:)`: plural units, a count from 1 to 999);
/// - `weekday` (or `weekdays`): Monday to Friday, every week;
/// - a unit and `on` its days, case ignored, commas and `and` between them:
///   - weekly: weekdays, `on mon, thu`, `on monday and thursday`, `on sat`, `on weekdays`,
///     `on weekends` (`mon`, `monday`, `mondays`; `tue`, `tues`; `wed`, `weds`; `thu`, `thur`,
///     `thurs`; …);
///   - monthly and yearly (a yearly one in its due date's month): days of the month
///     (`on the 15th`, `on the 1st and 15th`, `on the last day`, `on the 2nd to last day`),
///     numbered weekdays (`on the 2nd monday`, `on the last friday`, `first` to `fifth`, `1st` to
///     `5th`, `last`, `2nd last`), or the first or last working day (`on the last weekday`);
///     a trailing `of the month` is allowed.
///
/// A daily frequency takes no `on`; a numbered weekday needs a month or year; one rule does not
/// mix days of the month with weekdays.
enum RecurrenceArgument {
    /// The frequency `text` names.
    ///
    /// - Throws: `TaskError.invalid` naming `frequency` for a count or unit the task rules refuse
    ///   (`every 0 days is not a frequency`), as before `on` was read; `CommandError.usage`
    ///   naming what else is wrong and what is accepted.
    static func parse(_ text: String) throws -> Frequency {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        let on = words.firstIndex(of: "on")
        let head = Array(words[..<(on ?? words.count)])
        let clause = on.map { Array(words[($0 + 1)...]) }
        let reader = Reader(text: text.trimmingCharacters(in: .whitespaces))
        if let last = head.last, last == "weekday" || last == "weekdays" {
            guard head.count == 1 || head == ["1", last] else {
                throw reader.refuse(
                    "\"\(last)\" takes no count other than 1 (it is Monday to Friday, every week); "
                        + "for every \(head[0]) weeks say --every \(head[0]) weeks on weekdays")
            }
            guard clause == nil else {
                throw reader.refuse(
                    "\"\(last)\" is Monday to Friday and takes no \"on\"; for other days say --every week on mon, thu")
            }
            return try reader.frequency(1, .week, weekdays: Frequency.Weekday.workdays)
        }
        let base: Frequency
        switch head.count {
        case 1: base = try Frequency.parse(count: "1", unit: head[0])
        case 2: base = try Frequency.parse(count: head[0], unit: head[1])
        default:
            throw reader.refuse("give a count and a unit, like --every 2 weeks, or --every week on mon, thu")
        }
        guard let clause else { return base }
        guard !clause.isEmpty else {
            throw reader.refuse("\"on\" needs the days, like --every week on mon, thu or --every month on the 15th")
        }
        switch base.unit {
        case .day:
            throw reader.refuse(
                "a daily task is due every day and takes no \"on\"; for some days of the week say --every week on mon, thu"
            )
        case .week:
            return try reader.frequency(base.count, .week, weekdays: try reader.weekdays(clause))
        case .month, .year:
            return try reader.monthly(base.count, base.unit, clause)
        }
    }
}

/// The words after `on`, read for one `--every` text (which every refusal quotes).
private struct Reader {
    let text: String

    func refuse(_ reason: String) -> CommandError {
        .usage("--every \(text): \(reason)")
    }

    /// A frequency from parts the readers found, with the model's refusal in words.
    func frequency(
        _ count: Int, _ unit: Frequency.Unit, weekdays: [Frequency.Weekday] = [], rules: [Frequency.WeekdayRule] = [],
        monthDays: [Int] = [], setPositions: [Int] = []
    ) throws(CommandError) -> Frequency {
        do {
            let plain = try weekdays.map { weekday throws(ModelError) in try Frequency.WeekdayRule(weekday) }
            return try Frequency(
                count: count, unit: unit, weekdays: plain + rules, monthDays: monthDays, setPositions: setPositions)
        } catch {
            throw refuse(error.errorDescription ?? "\(error)")
        }
    }

    /// `mon, thu`, `monday and thursday`, `weekdays`, `weekends`.
    func weekdays(_ words: [String]) throws(CommandError) -> [Frequency.Weekday] {
        var days: [Frequency.Weekday] = []
        for word in words where !Self.joiners.contains(word) {
            if let day = Self.weekday(word) {
                days.append(day)
            } else if word == "weekdays" || word == "weekday" {
                days += Frequency.Weekday.workdays
            } else if word == "weekends" || word == "weekend" {
                days += [.saturday, .sunday]
            } else if word == "the" || word == "last" || Self.ordinal(word) != nil {
                throw refuse(
                    "numbered days like \"the last friday\" or \"the 15th\" need --every month or --every year; "
                        + "a week has each weekday once")
            } else {
                throw notAWeekday(word)
            }
        }
        return days
    }

    /// `the 15th`, `the last day`, `the 2nd monday`, `the last weekday`, joined by `and`.
    func monthly(_ count: Int, _ unit: Frequency.Unit, _ clause: [String]) throws(CommandError) -> Frequency {
        // Joiners stay in place: `the 15th and the last friday` is two days, `the 2nd last friday` one.
        var words = clause
        if let tail = [["of", "the", "month"], ["of", "month"], ["of", "each", "month"], ["of", "every", "month"]]
            .first(where: {
                Array(words.suffix($0.count)) == $0
            })
        {
            words.removeLast(tail.count)
        }
        var rules: [Frequency.WeekdayRule] = []
        var days: [Int] = []
        var positions: [Int] = []
        var index = 0
        while index < words.count {
            if Self.joiners.contains(words[index]) || words[index] == "the" {
                index += 1
                continue
            }
            let (number, used) = try ordinal(at: index, in: words)
            index += used
            let next = index < words.count ? words[index] : nil
            if let next, let weekday = Self.weekday(next) {
                guard abs(number) <= 5 else {
                    throw refuse(
                        "a month has at most 5 \(weekday.name)s, so there is no \(Frequency.ordinalWords(number)) \(next)"
                    )
                }
                do {
                    rules.append(try Frequency.WeekdayRule(weekday, ordinal: number))
                } catch {
                    throw refuse(error.errorDescription ?? "\(error)")
                }
                index += 1
            } else if next == "weekday" {
                guard abs(number) <= 23 else { throw refuse("a month has at most 23 weekdays (Monday to Friday)") }
                positions.append(number)
                index += 1
            } else {
                if next == "day" { index += 1 }
                guard number > 0 || next == "day" else {
                    throw refuse(
                        "the \(Frequency.ordinalWords(number)) what? say the \(Frequency.ordinalWords(number)) day, friday or weekday"
                    )
                }
                guard abs(number) <= 31 else {
                    throw refuse("months have at most 31 days, so there is no \(Frequency.ordinalWords(number)) day")
                }
                days.append(number)
            }
        }
        if !days.isEmpty, !rules.isEmpty || !positions.isEmpty {
            throw refuse(
                "one rule cannot mix days of the month (the 15th) with weekdays (the 2nd monday); add two tasks")
        }
        if !rules.isEmpty, !positions.isEmpty {
            throw refuse(
                "one rule cannot mix named weekdays (the 2nd monday) with the first or last weekday; add two tasks")
        }
        if !positions.isEmpty {
            return try frequency(count, unit, weekdays: Frequency.Weekday.workdays, setPositions: positions)
        }
        return try frequency(count, unit, rules: rules, monthDays: days)
    }

    /// The number `words[index...]` start with (`last` -1, `2nd to last` -2, `15th` 15) and how
    /// many words it took.
    private func ordinal(at index: Int, in words: [String]) throws(CommandError) -> (Int, Int) {
        let word = words[index]
        if word == "last" { return (-1, 1) }
        guard let number = Self.ordinal(word) else {
            if let weekday = Self.weekday(word) {
                throw refuse(
                    "say which \(weekday.name): the 1st \(word), the 2nd … or the last \(word); "
                        + "for every one say --every week on \(word)")
            }
            throw refuse(
                "\"\(word)\" is not a day of the month or a numbered weekday: "
                    + "say the 15th, the last day, the 2nd monday or the last weekday")
        }
        guard number > 0 else { throw refuse("there is no \(word): counting starts at the 1st") }
        let rest = words.dropFirst(index + 1)
        if rest.first == "last" { return (-number, 2) }
        if rest.starts(with: ["to", "last"]) { return (-number, 3) }
        return (number, 1)
    }

    private func notAWeekday(_ word: String) -> CommandError {
        let hint = Suggestion.nearest(to: word, in: Frequency.Weekday.spokenNames.map(\.name)).map {
            "; did you mean \"\($0)\"?"
        }
        return refuse("\"\(word)\" is not a weekday (mon, tue, wed, thu, fri, sat or sun)\(hint ?? "")")
    }

    /// Words between days that say nothing.
    private static let joiners: Set<String> = ["and", "&"]

    /// `mon`, `monday`, `mondays`.
    static func weekday(_ word: String) -> Frequency.Weekday? {
        let singular = word.count > 6 && word.hasSuffix("days") ? String(word.dropLast()) : word
        return Frequency.Weekday(spoken: singular)
    }

    /// `first` … `fifth`, `1st`, `2nd`, `15th`, `15`: the number, which may be 0 or above 31.
    private static func ordinal(_ word: String) -> Int? {
        if let index = ["first", "second", "third", "fourth", "fifth"].firstIndex(of: word) { return index + 1 }
        var digits = Substring(word)
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(2)
            break
        }
        guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
