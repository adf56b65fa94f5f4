import Foundation
public import Models
package import Storage

/// The local store that subscriptions, articles and household tasks live in: one SQLite file
/// (or memory), opened once and shared by the services built on it.
///
/// It is the one handle an app needs to persist what `FeedService`, `TaskService` and the chore
/// sync keep, and the whole of what the services see of the database: its repositories and
/// its changes. What lies behind them (the schema, the migrations, the SQL) never appears in
/// their interfaces.
public struct LocalStore: Sendable {
    private let database: AppDatabase

    /// A store over an open database (the composition root's, and the tests').
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

    package var feeds: FeedRepository { FeedRepository(database: database) }
    /// Articles, their states and their search.
    package var articles: ArticleRepository { ArticleRepository(database: database) }
    /// Household tasks, keeping the last `undoLimit` changes for undo.
    package func tasks(undoLimit: Int) -> TaskRepository {
        TaskRepository(database: database, undoLimit: undoLimit)
    }
    /// The chore-sharing account and the objects as last synced.
    package var settings: SettingRepository { SettingRepository(database: database) }
    package var rules: RuleRepository { RuleRepository(database: database) }
    package var savedViews: SavedViewRepository { SavedViewRepository(database: database) }
    package var choreSync: ChoreSyncRepository { ChoreSyncRepository(database: database) }
    /// Feed accounts, their feeds and articles, and the marks not yet sent.
    package var accounts: AccountRepository { AccountRepository(database: database) }
    package var configCache: ConfigCacheRepository { ConfigCacheRepository(database: database) }

    /// The changes committed to `entity` by this process, as they commit (see
    /// `AppDatabase.changes(of:_:)`).
    package func changes(of entity: Entity, _ filter: ChangeFilter = .all) -> AsyncStream<EntityChanges> {
        database.changes(of: entity, filter)
    }

    /// Every transaction this process commits that `filter` lets through, as it commits.
    package func changes(_ filter: ChangeFilter = .all) -> AsyncStream<ChangeSet> { database.changes(filter) }

    /// Moves the write-ahead log into the file (after a large write); without `truncating`,
    /// copies what it can without waiting (see `AppDatabase.checkpoint(truncating:)`).
    package func checkpoint(truncating: Bool = true) async throws(StorageError) {
        try await database.checkpoint(truncating: truncating)
    }
}
