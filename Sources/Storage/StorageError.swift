public import Foundation

/// Why the database could not be opened, read or written.
public enum StorageError: Error, Sendable, LocalizedError {
    /// The file exists but is not an SQLite database (or is damaged beyond reading).
    case notADatabase(path: String)
    /// The file was written by a newer Tidings whose schema this version does not know.
    case newerSchema(path: String)
    /// Any other SQLite failure, with SQLite's own message.
    case sqlite(message: String)

    /// A sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .notADatabase(let path):
            "\(path) is not a Tidings database (the file is damaged or is something else); move it aside and start again"
        case .newerSchema(let path):
            "\(path) was written by a newer version of Tidings; update Tidings to open it"
        case .sqlite(let message):
            "database error: \(message)"
        }
    }
}
