import Foundation
public import Models
package import Storage

/// The local store that subscriptions, articles and household tasks live in: one SQLite file
/// (or memory), opened once and shared by the services built on it.
///
/// It is the one handle an app needs to persist what `FeedService` and `TaskService` keep; what
/// lies behind it (the schema, the migrations, the SQL) is the Storage module's business and
/// never appears in this module's interface.
public struct LocalStore: Sendable {
    /// The database behind the store, for the program's composition root (its config cache
    /// lives in the same file).
    package let database: AppDatabase

    /// A store over an open database.
    package init(database: AppDatabase) { self.database = database }

    /// Opens (creating and migrating when needed) the store in the file at `path`.
    ///
    /// - Throws: `StorageError`: `.notADatabase` for a file that is someone else's or damaged,
    ///   `.newerSchema` for one a newer version wrote, `.cannotOpen` for a path that cannot be
    ///   created or read.
    public static func open(path: String) throws(StorageError) -> LocalStore {
        LocalStore(database: try AppDatabase(path: path))
    }

    /// A store in memory, gone when the last reference to it is.
    public static func inMemory() throws(StorageError) -> LocalStore {
        LocalStore(database: try AppDatabase.inMemory())
    }

    /// A number that changes whenever anyone commits a change to feeds, articles or tasks: this
    /// process (as soon as the write returns) or another one. Read cheaply: a cache of what the
    /// store holds is stale when it changes. `nil` when it cannot be read.
    public func dataVersion() async -> Int? {
        await database.dataVersion()
    }

    /// Moves a large write-ahead log (over 1 MB) into the file and empties it. Call it before
    /// the program exits: the store does not checkpoint as it closes (that cost every command
    /// two disk syncs), and a large log left behind is read again by every later process.
    public func finishWrites() async throws(StorageError) {
        try await database.checkpointIfLarge()
    }
}

/// The ids one committed transaction inserted, updated and deleted, of one kind of record.
public struct ChangedIDs: Sendable, Hashable {
    /// Records that are new.
    public var inserted: Set<Int64>
    /// Records that changed.
    public var updated: Set<Int64>
    /// Records that are gone.
    public var deleted: Set<Int64>

    /// Creates a description of changes.
    public init(inserted: Set<Int64> = [], updated: Set<Int64> = [], deleted: Set<Int64> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    init(_ changes: EntityChanges) {
        self.init(inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted)
    }
}

/// What one committed transaction changed among subscriptions and articles, by any writer of
/// the store (another process's commits are not seen).
public struct FeedChanges: Sendable, Hashable {
    /// Subscriptions.
    public var feeds: ChangedIDs
    /// Articles (their read and starred states included).
    public var articles: ChangedIDs

    /// Creates a description of changes.
    public init(feeds: ChangedIDs = ChangedIDs(), articles: ChangedIDs = ChangedIDs()) {
        self.feeds = feeds
        self.articles = articles
    }
}
