public import Foundation
public import Models

/// Why a task could not be added, changed, done, removed or undone.
public enum TaskError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// A value broke a rule; `field` names the value and `rule` says what is wrong
    /// (`name: must not be empty`).
    case invalid(field: String, rule: String)
    case notFound(id: Int64)
    /// A one-off task that is already done was done again.
    case alreadyDone(id: Int64)
    /// `undo()` found no recorded change.
    case nothingToUndo
    case storage(StorageError)

    /// One line a user can act on: `frequency: every 0 days is not a frequency`.
    public var description: String {
        switch self {
        case .invalid(let field, let rule): "\(field): \(rule)"
        case .notFound(let id): "there is no task #\(id)"
        case .alreadyDone(let id): "task #\(id) is already done"
        case .nothingToUndo: "nothing to undo"
        case .storage(let error): error.errorDescription ?? "\(error)"
        }
    }

    /// The same line as `description`.
    public var errorDescription: String? { description }

    /// A stable machine-readable code (`invalid`, `not_found`, `already_done`,
    /// `nothing_to_undo`, `storage`), for JSON error output.
    public var code: String {
        switch self {
        case .invalid: "invalid"
        case .notFound: "not_found"
        case .alreadyDone: "already_done"
        case .nothingToUndo: "nothing_to_undo"
        case .storage: "storage"
        }
    }

    /// The task error a storage error means for a task caller: unknown tasks become
    /// `notFound`, blank fields and unknown linked articles become `invalid`.
    init(_ error: StorageError) {
        switch error {
        case .notFound(entity: "task", let id): self = .notFound(id: id)
        case .notFound(entity: "article", let id): self = .invalid(field: "article", rule: "there is no article #\(id)")
        case .missingField(entity: "task", let field): self = .invalid(field: field, rule: "must not be empty")
        default: self = .storage(error)
        }
    }
}
