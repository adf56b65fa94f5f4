public import Foundation

/// An error raised when a value cannot be a valid Tidings model value.
public enum ModelError: Error, Sendable, Hashable, LocalizedError {
    /// A version string that does not follow `MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]`.
    case invalidVersion(String)
    /// A recurrence whose count is below 1.
    case invalidFrequencyCount(Int)
    /// A required field that is missing or blank.
    case missingField(String)
    /// Recurrence rule parts that do not fit together or are out of range; the reason says which
    /// (`ordinals like the 2nd Monday need a monthly or yearly recurrence`).
    case invalidRecurrence(String)
    /// An RFC 5545 `RRULE` value that cannot be read, with the reason
    /// (`BYMONTHDAY=40: a day of the month is 1 to 31, or -31 to -1 counting from the end`).
    case invalidRecurrenceRule(String, reason: String)

    /// A sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .invalidVersion(let input):
            "\"\(input)\" is not a version (expected MAJOR[.MINOR[.PATCH]][-PRERELEASE], like 1.2.3)"
        case .invalidFrequencyCount(let count):
            "a task repeats every 1 or more units, not every \(count)"
        case .missingField(let name):
            "\(name) is required"
        case .invalidRecurrence(let reason):
            "not a recurrence: \(reason)"
        case .invalidRecurrenceRule(let rule, let reason):
            "\"\(rule.prefix(80))\" is not a recurrence rule: \(reason)"
        }
    }
}
