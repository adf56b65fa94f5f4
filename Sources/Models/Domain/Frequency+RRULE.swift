extension Frequency {
    /// Reads an RFC 5545 `RRULE` value (`FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH`), as Apple
    /// Reminders, tasks.org and Thunderbird write it: parts in any order, case ignored, an
    /// `RRULE:` prefix and an empty part (a trailing `;`) allowed.
    ///
    /// `FREQ` is `DAILY`, `WEEKLY`, `MONTHLY` or `YEARLY`; `INTERVAL` is 1…10,000 (1 when absent);
    /// `BYDAY`, `BYMONTHDAY` and `BYSETPOS` become `weekdays`, `monthDays` and `setPositions`.
    /// Every other part (`WKST`, `COUNT`, `UNTIL`, `BYMONTH`, `BYHOUR`, …) is not part of the
    /// schedule and is not read: the caller keeps the rule's text for what it does not model.
    ///
    /// - Parameter rrule: the value of an `RRULE` property.
    /// - Throws: `ModelError.invalidRecurrenceRule` naming the part that is malformed: a part
    ///   without `=`, a missing or unknown `FREQ`, a part given twice, `INTERVAL=0`,
    ///   `BYDAY=XX`, `BYMONTHDAY=40`, or parts that do not fit the `FREQ` (`2MO` weekly).
    public init(rrule: String) throws(ModelError) {
        var text = rrule.trimmedWhitespace
        if text.uppercased().hasPrefix("RRULE:") { text = String(text.dropFirst(6)) }
        func refuse(_ reason: String) -> ModelError { .invalidRecurrenceRule(rrule, reason: reason) }
        var values: [String: String] = [:]
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { throw refuse("the part \"\(part)\" has no \"=\" (write NAME=VALUE)") }
            let name = String(pair[0]).trimmedWhitespace.uppercased()
            guard Self.modelledParts.contains(name) else { continue }
            guard values[name] == nil else { throw refuse("\(name) is given twice") }
            values[name] = String(pair[1]).trimmedWhitespace
        }
        guard let freq = values["FREQ"] else { throw refuse("it has no FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)") }
        guard let unit = Self.units.first(where: { $0.freq == freq.uppercased() })?.unit else {
            throw refuse("FREQ=\(freq): a task repeats DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        var count = 1
        if let interval = values["INTERVAL"] {
            guard let number = Self.number(interval), Self.intervalRange.contains(number) else {
                throw refuse("INTERVAL=\(interval): the interval is a whole number from 1 to 10000")
            }
            count = number
        }
        let weekdays = try Self.list(values["BYDAY"], name: "BYDAY", rrule) { entry throws(ModelError) in
            try WeekdayRule(rruleValue: entry)
        }
        let monthDays = try Self.list(values["BYMONTHDAY"], name: "BYMONTHDAY", rrule) { entry throws(ModelError) in
            guard let day = Self.signedNumber(entry), Self.counts(day, upTo: Self.monthDayLimit) else {
                throw .invalidRecurrence(
                    "\"\(entry)\" is not a day of the month (1 to 31, or -31 to -1 counting from the end)")
            }
            return day
        }
        let setPositions = try Self.list(values["BYSETPOS"], name: "BYSETPOS", rrule) { entry throws(ModelError) in
            guard let position = Self.signedNumber(entry), Self.counts(position, upTo: Self.setPositionLimit) else {
                throw .invalidRecurrence(
                    "\"\(entry)\" is not a position (1 to 366, or -366 to -1 counting from the end)")
            }
            return position
        }
        do {
            try self.init(
                count: count, unit: unit, weekdays: weekdays, monthDays: monthDays, setPositions: setPositions)
        } catch {
            throw refuse(Self.reason(error))
        }
    }

    /// The canonical `RRULE` value: `FREQ=…;INTERVAL=N` (the interval always written, as Apple
    /// Reminders and tasks.org write it), then `BYDAY=…`, `BYMONTHDAY=…` and `BYSETPOS=…` when
    /// set: `FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR`.
    public var rruleValue: String {
        let freq = Self.units.first { $0.unit == unit }?.freq ?? "DAILY"
        var parts = ["FREQ=\(freq)", "INTERVAL=\(count)"]
        if !weekdays.isEmpty { parts.append("BYDAY=" + weekdays.map(\.rruleValue).joined(separator: ",")) }
        if !monthDays.isEmpty { parts.append("BYMONTHDAY=" + monthDays.map(String.init).joined(separator: ",")) }
        if !setPositions.isEmpty { parts.append("BYSETPOS=" + setPositions.map(String.init).joined(separator: ",")) }
        return parts.joined(separator: ";")
    }

    private static let units: [(freq: String, unit: Unit)] = [
        ("DAILY", .day), ("WEEKLY", .week), ("MONTHLY", .month), ("YEARLY", .year),
    ]

    /// The parts `init(rrule:)` reads; the others are skipped unread.
    private static let modelledParts: Set<String> = ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYSETPOS"]

    /// `INTERVAL`'s range.
    static let intervalRange = 1...10_000

    /// A comma-separated part's entries, each read by `read`; empty when the part is absent.
    private static func list<Value>(
        _ text: String?, name: String, _ rrule: String, _ read: (String) throws(ModelError) -> Value
    ) throws(ModelError) -> [Value] {
        guard let text else { return [] }
        var values: [Value] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = String(entry).trimmedWhitespace
            guard !entry.isEmpty else {
                throw .invalidRecurrenceRule(rrule, reason: "\(name)=\(text) has an empty entry")
            }
            do throws(ModelError) {
                values.append(try read(entry))
            } catch {
                throw .invalidRecurrenceRule(rrule, reason: "\(name)=\(text): \(reason(error))")
            }
        }
        return values
    }

    /// The reason inside a `ModelError`, without its own framing.
    private static func reason(_ error: ModelError) -> String {
        switch error {
        case .invalidRecurrence(let reason), .invalidRecurrenceRule(_, let reason): reason
        default: error.errorDescription ?? "\(error)"
        }
    }

    /// ASCII digits as a number (`Int("+5")` would take the sign, `Int("٣")` is nil anyway).
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// An optionally signed run of ASCII digits (`-1`, `+15`, `15`).
    private static func signedNumber(_ text: String) -> Int? {
        switch text.first {
        case "-": number(String(text.dropFirst())).map { -$0 }
        case "+": number(String(text.dropFirst()))
        default: number(text)
        }
    }
}
