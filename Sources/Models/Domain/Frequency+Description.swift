extension Frequency {
    /// How a person says it, as `task list` shows it: `every day`, `every 2 weeks`,
    /// `every weekday`, `every 2 weeks on Mon, Thu`, `every month on the last Friday`,
    /// `every month on the 15th`, `every month on the last day`, `every month on the 2nd Monday`.
    /// A yearly rule falls in its first occurrence's month: `every year on the last Sunday of its
    /// month`.
    public var description: String {
        let every = count == 1 ? "every \(unit.rawValue)" : "every \(count) \(unit.rawValue)s"
        guard hasRuleParts else { return every }
        let onWorkdays =
            setPositions.isEmpty && monthDays.isEmpty && weekdays.allSatisfy { $0.ordinal == nil }
            && weekdays.map(\.weekday) == Weekday.workdays
        switch unit {
        case .day:
            if onWorkdays, count == 1 { return "every weekday" }
            return filterPhrase.map { "\(every), only on \($0)" } ?? every
        case .week:
            if onWorkdays { return count == 1 ? "every weekday" : "\(every) on weekdays" }
            guard !weekdays.isEmpty else { return every }
            let days = weekdays.map(\.weekday.shortName).joined(separator: ", ")
            guard !setPositions.isEmpty else { return "\(every) on \(days)" }
            return "\(every) on the \(positionWords) of \(days)"
        case .month:
            return monthPhrase.map { "\(every) on \($0)" } ?? every
        case .year:
            return monthPhrase.map { "\(every) on \($0) of its month" } ?? every
        }
    }

    /// A daily rule's filter: `Mon, Thu`, `the 15th`, `the 13th when it is a Friday`.
    private var filterPhrase: String? {
        let days = weekdays.map(\.weekday.shortName).joined(separator: ", ")
        switch (monthDays.isEmpty, weekdays.isEmpty) {
        case (true, true): return nil
        case (true, false): return days
        case (false, true): return Self.listed(monthDays.map(Self.monthDayWords))
        case (false, false): return Self.listed(monthDays.map(Self.monthDayWords)) + " when it is a " + days
        }
    }

    /// A monthly (or yearly) rule's days: `the 2nd Monday`, `Fridays`, `the 1st and the 15th`,
    /// `the last weekday`, `the 13th when it is a Friday`.
    private var monthPhrase: String? {
        let weekdayWords = weekdays.map { rule in
            rule.ordinal == nil ? rule.weekday.name + "s" : rule.description
        }
        let dayWords = monthDays.map(Self.monthDayWords)
        var base: String
        switch (dayWords.isEmpty, weekdayWords.isEmpty) {
        case (true, true): return nil
        case (false, true): base = Self.listed(dayWords)
        case (true, false): base = Self.listed(weekdayWords)
        case (false, false):
            let which = weekdays.map { $0.ordinal == nil ? "a " + $0.weekday.name : $0.description }
            base = Self.listed(dayWords) + " when it is " + Self.listed(which, last: "or")
        }
        guard !setPositions.isEmpty else { return base }
        if monthDays.isEmpty, weekdays.allSatisfy({ $0.ordinal == nil }) {
            let days = weekdays.map(\.weekday)
            if days == Weekday.workdays { return "the \(positionWords) weekday" }
            if days.count == 1, let day = days.first { return "the \(positionWords) \(day.name)" }
            base = days.map(\.shortName).joined(separator: ", ")
        }
        return "the \(positionWords) of \(base)"
    }

    /// `1st and last`.
    private var positionWords: String { Self.listed(setPositions.map(Self.ordinalWords)) }

    /// `the 15th`, `the last day`, `the 2nd to last day`.
    private static func monthDayWords(_ day: Int) -> String {
        day < 0 ? "the \(ordinalWords(day)) day" : "the \(ordinalWords(day))"
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func listed(_ words: [String], last: String = "and") -> String {
        guard let final = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(last) " + final
    }
}
