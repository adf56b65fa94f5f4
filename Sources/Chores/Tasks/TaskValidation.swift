import Foundation
package import Models

/// The rules a task's values follow before anything is written. Each failure names the field
/// and the rule.
enum TaskValidation {
    /// The most units between two occurrences (also keeps date arithmetic far from overflow).
    static let maximumCount = 999

    /// The trimmed name. Throws `name: must not be empty` for a blank one (invisible
    /// characters count as blank) and `name: must not contain control characters` for a NUL,
    /// an escape or another control character.
    static func name(_ name: String) throws(TaskError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalid(field: "name", rule: "must not contain control characters (such as NUL)")
        }
        guard trimmed.unicodeScalars.contains(where: { !$0.isControlOrInvisibleFormat && !$0.properties.isWhitespace })
        else { throw .invalid(field: "name", rule: "must not be empty") }
        return trimmed
    }

    /// The note, or `nil` for a blank one. Throws for a NUL or another control character but
    /// tab and newline.
    static func note(_ note: String?) throws(TaskError) -> String? {
        guard let note, !note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        if note.unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t"
        }) {
            throw .invalid(field: "note", rule: "must not contain control characters (such as NUL)")
        }
        return note
    }

    /// The longest list name, in characters.
    static let maximumListName = 100
    /// The most reminders one chore keeps.
    static let maximumReminders = 10

    /// The trimmed list name. Throws for a blank one, one with control characters, or one
    /// longer than `maximumListName`.
    static func list(_ name: String) throws(TaskError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalid(field: "list", rule: "must not be empty") }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalid(field: "list", rule: "must not contain control characters")
        }
        guard trimmed.count <= maximumListName else {
            throw .invalid(field: "list", rule: "must be at most \(maximumListName) characters")
        }
        return trimmed
    }

    /// Reminders sorted and without repeats. Throws for more than `maximumReminders`, or one
    /// further than a year from the due time.
    static func reminders(_ minutes: [Int]) throws(TaskError) -> [Int] {
        let sorted = Array(Set(minutes)).sorted()
        guard sorted.count <= maximumReminders else {
            throw .invalid(field: "remind", rule: "at most \(maximumReminders) reminders")
        }
        guard sorted.allSatisfy({ abs($0) <= TaskReminder.maximumMinutes }) else {
            throw .invalid(field: "remind", rule: "a reminder is at most a year before the due time")
        }
        return sorted
    }

    /// Checks a frequency's count: 1 through `maximumCount`.
    static func check(count: Int, unit: Frequency.Unit) throws(TaskError) {
        let every = "every \(count) \(unit.rawValue)\(count == 1 ? "" : "s")"
        guard count >= 1 else { throw .invalid(field: "frequency", rule: "\(every) is not a frequency") }
        guard count <= maximumCount else {
            throw .invalid(field: "frequency", rule: "\(every) is too far apart (at most \(maximumCount))")
        }
    }
}

extension Frequency {
    /// A frequency of `count` units, checked by the task rules.
    ///
    /// - Throws: `TaskError.invalid` naming `frequency`: `every 0 days is not a frequency`,
    ///   or a count above 999.
    package static func every(_ count: Int, _ unit: Unit) throws(TaskError) -> Frequency {
        try TaskValidation.check(count: count, unit: unit)
        do {
            return try Frequency(count: count, unit: unit)
        } catch {
            throw .invalid(field: "frequency", rule: error.errorDescription ?? "invalid")
        }
    }

    /// Reads a frequency from command words: a count (`2`) and a unit (`day`, `days`, `week`,
    /// `weeks`, `month`, `months`, `year` or `years`, in any case).
    ///
    /// - Throws: `TaskError.invalid` naming `frequency` and what is wrong with the words.
    package static func parse(count: String, unit: String) throws(TaskError) -> Frequency {
        let word = unit.trimmingCharacters(in: .whitespaces).lowercased()
        let singular = word.hasSuffix("s") ? String(word.dropLast()) : word
        guard let parsedUnit = Unit(rawValue: singular) else {
            throw .invalid(field: "frequency", rule: "\"\(unit)\" is not a unit (day, week, month or year)")
        }
        guard let parsedCount = Int(count.trimmingCharacters(in: .whitespaces)) else {
            throw .invalid(field: "frequency", rule: "\"\(count)\" is not a whole number of \(parsedUnit.rawValue)s")
        }
        return try every(parsedCount, parsedUnit)
    }
}
