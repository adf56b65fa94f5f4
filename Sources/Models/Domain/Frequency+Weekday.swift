extension Frequency {
    /// A day of the week, spelled as RFC 5545 spells it (`MO` … `SU`).
    public enum Weekday: String, Sendable, Hashable, CaseIterable {
        case monday = "MO"
        case tuesday = "TU"
        case wednesday = "WE"
        case thursday = "TH"
        case friday = "FR"
        case saturday = "SA"
        case sunday = "SU"

        /// Monday to Friday.
        public static let workdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]

        /// How many days after Monday it comes: 0 for Monday … 6 for Sunday.
        public var mondayOffset: Int { Self.allCases.firstIndex(of: self) ?? 0 }

        /// The number Foundation's Gregorian calendar gives it (`Calendar.Component.weekday`):
        /// 1 for Sunday, 2 for Monday … 7 for Saturday.
        public var calendarWeekday: Int { (mondayOffset + 1) % 7 + 1 }

        /// The weekday Foundation's Gregorian calendar numbers `calendarWeekday` (1 is Sunday);
        /// `nil` outside 1…7.
        public init?(calendarWeekday: Int) {
            guard (1...7).contains(calendarWeekday) else { return nil }
            self = Self.allCases[(calendarWeekday + 5) % 7]
        }

        /// `Monday`.
        public var name: String {
            switch self {
            case .monday: "Monday"
            case .tuesday: "Tuesday"
            case .wednesday: "Wednesday"
            case .thursday: "Thursday"
            case .friday: "Friday"
            case .saturday: "Saturday"
            case .sunday: "Sunday"
            }
        }

        /// `Mon`.
        public var shortName: String { String(name.prefix(3)) }
    }

    /// One RFC 5545 `BYDAY` entry: a weekday, numbered within the month or year when it has an
    /// ordinal (`2MO` is the 2nd Monday, `-1FR` the last Friday).
    public struct WeekdayRule: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The day of the week.
        public let weekday: Weekday
        /// Which one of the month's (or year's) `weekday`s: 1…53 counting from the start, -53…-1
        /// from the end; `nil` for every one.
        public let ordinal: Int?

        /// The furthest an ordinal counts, from either end of a year (`53MO`).
        static let ordinalLimit = 53

        /// Creates a rule for `weekday`, numbered by `ordinal` when it is given.
        ///
        /// - Parameters:
        ///   - weekday: the day of the week.
        ///   - ordinal: 1…53 or -53…-1; `nil` for every `weekday`.
        /// - Throws: `ModelError.invalidRecurrence` for an ordinal of 0 or beyond ±53.
        public init(_ weekday: Weekday, ordinal: Int? = nil) throws(ModelError) {
            if let ordinal, !Frequency.counts(ordinal, upTo: Self.ordinalLimit) {
                throw .invalidRecurrence(
                    "\"\(ordinal)\(weekday.rawValue)\": a weekday is numbered 1 to 53, or -53 to -1 from the end")
            }
            self.weekday = weekday
            self.ordinal = ordinal
        }

        /// Reads a `BYDAY` entry: an optional signed ordinal and a two-letter weekday (`FR`,
        /// `-1FR`, `+2mo`), case ignored.
        ///
        /// - Parameter rruleValue: the entry.
        /// - Throws: `ModelError.invalidRecurrence` saying what is wrong.
        public init(rruleValue: String) throws(ModelError) {
            let text = rruleValue.trimmedWhitespace.uppercased()
            let accepted = "MO, TU, WE, TH, FR, SA or SU, numbered like 2MO or -1FR"
            guard text.count >= 2, let weekday = Weekday(rawValue: String(text.suffix(2))) else {
                throw .invalidRecurrence("\"\(rruleValue)\" is not a weekday (\(accepted))")
            }
            let number = text.dropLast(2)
            guard !number.isEmpty else {
                try self.init(weekday)
                return
            }
            let sign = number.first == "-" ? -1 : 1
            let digits = number.first == "-" || number.first == "+" ? number.dropFirst() : number
            guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let magnitude = Int(digits)
            else { throw .invalidRecurrence("\"\(rruleValue)\" is not a weekday (\(accepted))") }
            try self.init(weekday, ordinal: sign * magnitude)
        }

        /// The `BYDAY` entry: `FR`, `-1FR`, `2MO`.
        public var rruleValue: String { (ordinal.map(String.init) ?? "") + weekday.rawValue }

        /// `Mon` without an ordinal; `the 2nd Monday`, `the last Friday` with one.
        public var description: String {
            guard let ordinal else { return weekday.shortName }
            return "the \(Frequency.ordinalWords(ordinal)) \(weekday.name)"
        }

        /// Decodes the `BYDAY` entry (`"MO"`, `"-1FR"`).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            do {
                try self.init(rruleValue: text)
            } catch {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: error.errorDescription ?? "invalid weekday")
            }
        }

        /// Encodes the `BYDAY` entry (`"MO"`, `"-1FR"`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rruleValue)
        }
    }

    /// `1st`, `2nd`, `23rd`, `last` (-1), `2nd to last` (-2).
    package static func ordinalWords(_ number: Int) -> String {
        if number == -1 { return "last" }
        if number < 0 { return ordinalWords(-number) + " to last" }
        let suffix =
            switch (number % 10, number % 100) {
            case (_, 11...13): "th"
            case (1, _): "st"
            case (2, _): "nd"
            case (3, _): "rd"
            default: "th"
            }
        return "\(number)\(suffix)"
    }
}
