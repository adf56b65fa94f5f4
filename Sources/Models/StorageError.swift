public import Foundation

/// Why the local database could not be opened, read or written: the failure vocabulary the
/// Storage module throws and the services above it (Feed's `FeedError.storage`, `TaskError.storage`)
/// carry, typed, to their callers.
public enum StorageError: Error, Sendable, Hashable, LocalizedError {
    /// The file exists but is not an SQLite database (or is damaged beyond reading).
    case notADatabase(path: String)
    /// The file was written by a newer Tidings whose schema this version does not know.
    case newerSchema(path: String)
    /// The file cannot be opened or created (missing or read-only directory, permissions).
    case cannotOpen(path: String, reason: String)
    /// A required field is missing or blank; `field` names it.
    case missingField(entity: String, field: String)
    /// An object with the same unique key already exists.
    case duplicate(String)
    case notFound(entity: String, id: Int64)
    /// Any other SQLite failure, with SQLite's own message.
    case sqlite(message: String)

    /// A sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .notADatabase(let path):
            "\(path) is not a Tidings database (the file is damaged or is something else); move it aside and start again"
        case .newerSchema(let path):
            "\(path) was written by a newer version of Tidings; update Tidings to open it"
        case .cannotOpen(let path, let reason):
            "cannot open the database \(path): \(reason)"
        case .missingField(let entity, let field):
            "cannot save the \(entity): \(field) is required"
        case .duplicate(let what):
            "\(what) already exists"
        case .notFound(let entity, let id):
            "no \(entity) #\(id)"
        case .sqlite(let message):
            "database error: \(message)"
        }
    }
}
