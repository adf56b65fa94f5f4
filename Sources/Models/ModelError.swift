public import Foundation

/// An error raised when a value cannot be a valid Tidings model value.
public enum ModelError: Error, Sendable, Hashable, LocalizedError {
    /// A version string that does not follow `MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]`.
    case invalidVersion(String)
    /// A recurrence whose count is below 1.
    case invalidFrequencyCount(Int)
    /// A required field that is missing or blank.
    case missingField(String)

    /// A sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .invalidVersion(let input):
            "\"\(input)\" is not a version (expected MAJOR[.MINOR[.PATCH]][-PRERELEASE], like 1.2.3)"
        case .invalidFrequencyCount(let count):
            "a task repeats every 1 or more units, not every \(count)"
        case .missingField(let name):
            "\(name) is required"
        }
    }
}
