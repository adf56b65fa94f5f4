internal import CSQLiteShims
import Foundation
internal import GRDB
internal import GRDBSQLite
public import Models

/// The one database Tidings keeps: opens the file, configures SQLite, runs the migrations, and
/// tells subscribers what each committed transaction changed.
///
/// A file database is a `DatabasePool` in WAL mode, so readers never wait for the writer;
/// foreign keys are on, and a busy timeout lets two processes share the file. Repositories are
/// made from it; callers never see GRDB or SQL.
public final class AppDatabase: Sendable {
    let writer: any DatabaseWriter
    let tracker: ChangeTracker
    /// Writes that may share a transaction (see `GroupCommit` and `writeTogether`).
    let together: GroupCommit
    /// The search indexes, in a file of their own (see `SearchIndexFile`).
    let search: SearchIndexFile
    /// Where the database lives, for error messages.
    public let path: String

    /// How a database file is opened.
    public struct Options: Sendable, Hashable {
        /// Open for reading only: nothing is written, not even a migration, so a file that
        /// needs one is refused (`.cannotOpen`). Writes fail with `.sqlite`.
        public var readOnly: Bool
        /// How long a statement waits for another process's transaction before failing with
        /// "database is locked".
        public var busyTimeout: Duration

        /// Options; by default read-write, waiting up to 5 seconds for other processes.
        public init(readOnly: Bool = false, busyTimeout: Duration = .seconds(5)) {
            self.readOnly = readOnly
            self.busyTimeout = busyTimeout
        }
    }

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// - Throws: `StorageError.notADatabase` for a file that is not SQLite (the file is left
    ///   untouched), `.newerSchema` for a file from a newer Tidings, `.cannotOpen` when the
    ///   directory is missing or not writable (or, read-only, when the file is missing or needs
    ///   a migration).
    public convenience init(path: String, options: Options = Options()) throws(StorageError) {
        try self.init(path: path, options: options, onStatement: nil)
    }

    convenience init(
        path: String, options: Options = Options(), onStatement: (@Sendable (String) -> Void)?
    ) throws(StorageError) {
        Self.configureSQLite
        if options.readOnly, !FileManager.default.fileExists(atPath: path) {
            throw .cannotOpen(path: path, reason: "there is no database to open read-only")
        }
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty,
            !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue
        {
            throw .cannotOpen(path: path, reason: "the directory \(directory) does not exist")
        }
        var marked = false
        if FileManager.default.fileExists(atPath: path) {
            let header = try Self.header(path)
            if !header.isEmpty && !Self.isSQLite(header) {
                throw .notADatabase(path: path)
            }
            // Tidings marks its files (`PRAGMA application_id`, header bytes 68-71): a marked
            // file opens at once; a file marked by another program is refused; an unmarked one
            // with tables is opened only when they are Tidings' (a file from before the mark),
            // whatever its journal mode. Nothing is written to a refused file, not even a WAL.
            let application = Self.applicationID(inHeader: header)
            marked = application == Self.applicationID
            if !marked, !header.isEmpty || Self.hasWAL(path) {
                if application != 0 { throw .notADatabase(path: path) }
                if try Self.holdsForeignSchema(path) { throw .notADatabase(path: path) }
            }
        }
        if !options.readOnly { SearchIndexFile.prepareExisting(at: SearchIndexFile.path(forStore: path)) }
        let pool: DatabasePool
        do {
            let configuration = Self.configuration(options: options, storePath: path, onStatement: onStatement)
            pool = try Self.whileBusy(for: options.busyTimeout) {
                try DatabasePool(path: path, configuration: configuration)
            }
        } catch {
            throw Self.storageError(error, path: path)
        }
        try self.init(writer: pool, path: path, readOnly: options.readOnly)
        if !marked, !options.readOnly {
            // Mark the file as Tidings' own (new, or from before the mark) and move the mark into
            // the file itself now, so the next start reads it from the header alone. A file that
            // cannot take the mark (read-only) is still opened: its schema was checked above.
            try? pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
                try db.execute(sql: "PRAGMA main.wal_checkpoint(PASSIVE)")
            }
        }
    }

    /// Runs `body` again while it fails with SQLite's "database is locked", for at most
    /// `timeout`. A file's switch to WAL (`PRAGMA journal_mode = WAL`, which opening a pool on a
    /// new file runs) takes an exclusive lock without SQLite's busy handler: two processes
    /// starting on a new file at once would otherwise see one of them fail at once.
    static func whileBusy<T>(for timeout: Duration, _ body: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && clock.now < deadline {
                usleep(UInt32.random(in: 1_000...5_000))
            }
        }
    }

    /// Tidings' `PRAGMA application_id`: "Tdgs".
    static let applicationID: UInt32 = 0x5464_6773

    /// An empty in-memory database with the full schema, for tests and previews.
    public static func inMemory() throws(StorageError) -> AppDatabase {
        try inMemory(onStatement: nil)
    }

    /// SQLite's process-wide settings, made once before its first use (see
    /// `tidings_disable_memory_statistics`).
    static let configureSQLite: Void = {
        _ = tidings_disable_memory_statistics()
    }()

    static func inMemory(onStatement: (@Sendable (String) -> Void)?) throws(StorageError) -> AppDatabase {
        Self.configureSQLite
        do {
            let queue = try DatabaseQueue(
                configuration: configuration(options: Options(), storePath: ":memory:", onStatement: onStatement))
            return try AppDatabase(writer: queue, path: ":memory:", readOnly: false)
        } catch {
            throw storageError(error, path: ":memory:")
        }
    }

    private init(writer: any DatabaseWriter, path: String, readOnly: Bool) throws(StorageError) {
        self.writer = writer
        self.path = path
        search = SearchIndexFile(storePath: path, readOnly: readOnly)
        tracker = ChangeTracker()
        together = GroupCommit(writer: writer, tracker: tracker)
        do {
            // A file this version set up completely says so in its user_version: one read on the
            // writer's connection, and no reader opened at start (see `schemaVersion`).
            let version = try writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
            if version != Self.schemaVersion {
                try Self.migrate(writer, path: path, readOnly: readOnly)
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw Self.storageError(error, path: path)
        }
        writer.add(transactionObserver: tracker, extent: .databaseLifetime)
    }

    /// A stream of the change sets `filter` admits, one per committed transaction, starting
    /// with the next commit. Each call makes a new stream for one consumer.
    public func changes(_ filter: ChangeFilter = .all) -> AsyncStream<ChangeSet> {
        tracker.changes(filter)
    }

    /// Runs `updates` in one transaction on the writer, off the caller's thread, and tags its
    /// changes with `source`. The caller gets the result or the error once it has committed or
    /// rolled back (a "background save" whose outcome reaches the caller).
    func write<T: Sendable>(
        source: ChangeSource, _ updates: @escaping @Sendable (Database) throws -> T
    ) async throws(StorageError) -> T {
        let tracker = self.tracker
        do {
            return try await writer.write { db in
                tracker.begin(source: source)
                return try updates(db)
            }
        } catch {
            throw Self.storageError(error, path: path)
        }
    }

    /// Runs `updates` as `write(source:_:)` does, but in a transaction it may share with other
    /// such writes that wait for the writer meanwhile (see `GroupCommit`): still whole or
    /// nothing, and apart from the others, so `updates` may run a second time, alone, after the
    /// shared transaction failed. `weight` is how much it writes (articles), which bounds how
    /// many writes share a transaction.
    func writeTogether<T: Sendable>(
        source: ChangeSource, weight: Int, _ updates: @escaping @Sendable (Database) throws -> T
    ) async throws(StorageError) -> T {
        switch await together.write(source: source, weight: weight, updates) {
        case .success(let value): return value
        case .failure(let error): throw Self.storageError(error, path: path)
        }
    }

    /// Runs a small `query` of one statement on the writer's connection, which is open from the
    /// start: a read every start makes (the cached configuration) opens no reader, so a
    /// one-line command that only writes opens one connection instead of two. It waits for a
    /// write in progress, so it is not for reads during a refresh.
    func readOnWriter<T: Sendable>(_ query: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T
    {
        do {
            return try await writer.writeWithoutTransaction(query)
        } catch {
            throw Self.storageError(error, path: path)
        }
    }

    /// Runs `query` on a reader (a snapshot that never waits for the writer in WAL mode).
    func read<T: Sendable>(_ query: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do {
            return try await writer.read(query)
        } catch {
            throw Self.storageError(error, path: path)
        }
    }

    /// A number that changes whenever anyone commits a change to feeds, articles or tasks: this
    /// process (counted as its commits happen, before `write` returns) or another one (`PRAGMA
    /// data_version` on the writer's connection). A cheap "has anything changed?" for caches such
    /// as the REPL's completion ids, with no race against change-set delivery. `nil` when it
    /// cannot be read.
    public func dataVersion() async -> Int? {
        guard
            let external = try? await writer.writeWithoutTransaction({ db in
                try Int.fetchOne(db, sql: "PRAGMA data_version")
            })
        else { return nil }
        return external &<< 32 ^ tracker.commitCount
    }

    /// Copies the write-ahead log into the database and truncates it, after a large write (a
    /// refresh, an import), so that later processes start with an empty log instead of
    /// recovering and checkpointing it again. Readers in flight may keep part of it; that part
    /// is checkpointed later, as usual.
    ///
    /// Without `truncating`, it copies what no reader still needs and returns at once, waiting
    /// for no one (SQLite's passive checkpoint): a refresh does so while its search index
    /// catches up, so that the truncating checkpoint after it finds nothing left to copy.
    public func checkpoint(truncating: Bool = true) async throws(StorageError) {
        guard path != ":memory:" else { return }
        let mode = truncating ? "TRUNCATE" : "PASSIVE"
        do {
            try await writer.writeWithoutTransaction { db in
                _ = try Row.fetchOne(db, sql: "PRAGMA main.wal_checkpoint(\(mode))")
            }
        } catch {
            throw Self.storageError(error, path: path)
        }
    }

    /// Checkpoints and truncates the write-ahead log when it holds more than `limit` bytes;
    /// programs call it before they exit. Closing does not checkpoint (see the configuration),
    /// and a log left large would be recovered, and checkpointed again, by every later process:
    /// after a `feed add` of 10,000 articles each later command read and wrote its 15 MB again.
    public func checkpointIfLarge(limit: Int = 1 << 20) async throws(StorageError) {
        guard path != ":memory:" else { return }
        do {
            try search.checkpointIfLarge(limit: limit)
        } catch {
            throw Self.storageError(error, path: search.path ?? path)
        }
        guard Self.fileSize(path + "-wal") > limit else { return }
        try await checkpoint()
    }

    /// Runs SQLite's own consistency check and returns its report (`["ok"]` when sound).
    func integrityCheck() throws(StorageError) -> [String] {
        do {
            return try writer.read { db in try String.fetchAll(db, sql: "PRAGMA main.integrity_check") }
        } catch {
            throw Self.storageError(error, path: path)
        }
    }

    /// SQLite's and FTS5's checks of the search index file (`["ok"]` when sound).
    func searchIntegrityCheck() throws(StorageError) -> [String] {
        do {
            return try search.integrityCheck(fallback: writer)
        } catch {
            throw Self.storageError(error, path: search.path ?? path)
        }
    }

    /// Runs `updates` in one transaction of the search index's writer (see `SearchIndexFile`),
    /// beside the articles' writer: it never waits for a merge, nor a merge for it.
    func writeSearchIndex<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws(StorageError)
        -> T
    {
        do {
            return try await search.write(fallback: writer, updates)
        } catch {
            throw Self.storageError(error, path: search.path ?? path)
        }
    }

    /// What every connection Tidings opens needs, to the articles' file or to the search
    /// index's: durable enough commits, no memory map, a log kept between processes and not
    /// checkpointed at close, and the substring index's tokenizer.
    static func prepareConnection(_ db: Database) throws {
        // In WAL mode NORMAL never corrupts and never loses a commit when the process dies;
        // only a power cut can roll back the last commits. It spares an fsync per commit.
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        // No memory map: page faults on a mapped file read ahead around each index page, so a
        // 20-row page over 100,000 articles had 160-290 MB resident and a cold refresh 135 MB.
        // Read through SQLite's own small cache instead (31 MB and 48 MB); only scans over
        // most articles' rows (a search for very common words) are slower.
        try db.execute(sql: "PRAGMA mmap_size = 0")
        // Keep the WAL file when the last connection closes. Otherwise every process that
        // opens the pool finds no WAL, and GRDB writes (and syncs) a throwaway transaction
        // to create one: a few milliseconds on every start of the command-line program.
        var persist: Int32 = 1
        _ = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
        // No checkpoint when the last connection closes: it synced the log and the file at the
        // end of every command, reads included. SQLite still checkpoints as the log grows, a
        // refresh checkpoints and truncates it at once, and a program calls
        // `checkpointIfLarge()` before it exits, so that the next process never recovers more
        // than 1 MB of log.
        _ = tidings_skip_checkpoint_on_close(db.sqliteConnection)
        // When a long session's checkpoint starts the log over, a log that one large
        // transaction grew is cut back to 4 MB instead of staying that size.
        try db.execute(sql: "PRAGMA journal_size_limit = 4194304")
        // The substring index cannot be written or searched without its tokenizer.
        let registered = tidings_register_substring_tokenizer(db.sqliteConnection)
        guard registered == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: registered), message: "cannot register the search tokenizer")
        }
    }

    static func configuration(options: Options, storePath: String, onStatement: (@Sendable (String) -> Void)?)
        -> Configuration
    {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.readonly = options.readOnly
        configuration.busyMode = .timeout(max(0, options.busyTimeout.timeInterval))
        configuration.label = "Tidings"
        configuration.prepareDatabase { db in
            try prepareConnection(db)
            db.add(function: ArticleSearch.containsFunction)
            // The search indexes, in their own file (see `SearchIndexFile`).
            try SearchIndexFile.attach(db, storePath: storePath, readOnly: options.readOnly)
            if let onStatement {
                db.trace(options: .statement) { event in onStatement(event.description) }
            }
        }
        return configuration
    }

    static func storageError(_ error: any Error, path: String) -> StorageError {
        if let error = error as? StorageError { return error }
        // GRDB's asynchronous accesses throw this when the task is cancelled (an interrupt).
        if error is CancellationError { return .sqlite(message: "interrupted") }
        guard let error = error as? DatabaseError else { return .sqlite(message: String(describing: error)) }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .notADatabase(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        case .SQLITE_CONSTRAINT where error.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL:
            let column = error.message?.split(separator: ".").last.map(String.init) ?? "a field"
            return .missingField(entity: "record", field: column)
        default:
            return .sqlite(message: error.message ?? error.description)
        }
    }
}
