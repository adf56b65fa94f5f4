public import Foundation
public import Models

/// A chore changed on both sides, or deleted on one and changed on the other, and how the
/// sync settled it. Nothing is lost: a change that did not win is named here.
public struct ChoreSyncConflict: Sendable, Hashable {
    /// The task's name.
    public var task: String
    /// The fields both sides changed differently (`due`, `name`, …); empty for a deletion
    /// against a change.
    public var fields: [String]
    /// What the sync did, in words.
    public var resolution: String
    /// This device's values of `fields`, which the other device's replaced, as text (`due`:
    /// `2026-12-01` or `none`): reported, so that no change is lost unseen.
    public var discarded: [String: String]

    public init(task: String, fields: [String], resolution: String, discarded: [String: String] = [:]) {
        self.task = task
        self.fields = fields
        self.resolution = resolution
        self.discarded = discarded
    }
}

/// An object on the server a sync could not take, and why; it is left as it is.
public struct ChoreSyncProblem: Sendable, Hashable, CustomStringConvertible {
    /// Its path on the server.
    public var href: String
    /// Why, in words.
    public var reason: String

    public init(href: String, reason: String) {
        self.href = href
        self.reason = reason
    }

    /// `href: reason`.
    public var description: String { "\(href): \(reason)" }
}

/// What a sync did.
public struct ChoreSyncSummary: Sendable, Hashable {
    /// Objects written to the server (new or changed tasks, merges).
    public var sent = 0
    /// Tasks created or changed here from the server.
    public var received = 0
    /// Tasks deleted, here or there.
    public var deleted = 0
    /// Changes on both sides and how each was settled.
    public var conflicts: [ChoreSyncConflict] = []
    /// Objects that could not be synced, each with its reason; the others synced.
    public var problems: [ChoreSyncProblem] = []

    public init() {}

    /// Adds another collection's sync.
    mutating func add(_ other: ChoreSyncSummary) {
        sent += other.sent
        received += other.received
        deleted += other.deleted
        conflicts += other.conflicts
        problems += other.problems
    }

    /// `sent 2, received 1, deleted 0, 1 conflict`.
    public var line: String {
        var parts = ["sent \(sent)", "received \(received)", "deleted \(deleted)"]
        parts.append(conflicts.count == 1 ? "1 conflict" : "\(conflicts.count) conflicts")
        if !problems.isEmpty {
            parts.append(problems.count == 1 ? "1 chore skipped" : "\(problems.count) chores skipped")
        }
        return parts.joined(separator: ", ")
    }
}

/// Where chores are shared and how the last sync went: one collection.
public struct ChoreSyncStatus: Sendable, Hashable {
    /// The list the collection holds alone; `nil` for the collection of every other list.
    public var list: String?
    /// The calendar collection.
    public var url: URL
    /// The user the server knows.
    public var user: String
    /// When the last sync ended, if one did.
    public var lastSyncAt: Date?
    /// How it ended (its summary line, or why it failed).
    public var lastResult: String?
    /// Tasks shared with the collection.
    public var shared: Int
    /// Changes made here that the next sync sends (new, changed and deleted tasks).
    public var pending: Int
}

/// Why chores could not be shared or synced, in words a user can act on. A password never
/// appears in any of them.
public enum ChoreSyncError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// `task sync setup` has not been run.
    case notSetUp
    /// A set-up that cannot be: a list name the task rules refuse, a collection another list
    /// already uses, a list without a collection to stop.
    case invalid(String)
    /// The server or the network failed (wrong password, not a calendar, out of space, down).
    case remote(String)
    case storage(StorageError)

    /// The reason, in words.
    public var description: String {
        switch self {
        case .notSetUp: "chores are not shared yet: run \"task sync setup <collection-url>\" first"
        case .invalid(let reason): reason
        case .remote(let reason): reason
        case .storage(let error): error.errorDescription ?? "\(error)"
        }
    }

    /// The reason, in words.
    public var errorDescription: String? { description }
}
