import Models

extension Frequency.Weekday {
    /// The English names a command line may give a weekday, full and short, lowercase.
    static let spokenNames: [(name: String, weekday: Frequency.Weekday)] = [
        ("monday", .monday), ("mon", .monday), ("tuesday", .tuesday), ("tue", .tuesday), ("tues", .tuesday),
        ("wednesday", .wednesday), ("wed", .wednesday), ("weds", .wednesday), ("thursday", .thursday),
        ("thu", .thursday), ("thur", .thursday), ("thurs", .thursday), ("friday", .friday), ("fri", .friday),
        ("saturday", .saturday), ("sat", .saturday), ("sunday", .sunday), ("sun", .sunday),
    ]

    /// The weekday a lowercase word names (`fri`, `friday`); `nil` for any other word.
    init?(spoken word: String) {
        guard let weekday = Self.spokenNames.first(where: { $0.name == word })?.weekday else { return nil }
        self = weekday
    }
}
