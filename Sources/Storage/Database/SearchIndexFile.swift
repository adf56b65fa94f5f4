internal import CSQLiteShims
import Foundation
internal import GRDB
internal import GRDBSQLite
import Models
import Synchronization

/// The search indexes in a database file of their own, beside the articles' (`PATH-search`
/// beside `PATH`), written by a writer of their own: a refresh indexes the articles it has
/// merged while it merges the next ones, on the other core, instead of after them on the one
/// writer (see `ArticleRepository.updateSearchIndex`).
///
/// Every connection to the articles' file attaches this file as `search`, so that queries name
/// the index tables as before; the index writer's connection attaches the articles' file as
/// `store` and reads the articles from it. The index is derived data: a file that is missing,
/// not SQLite, another program's, or built for another articles' file (its token differs) is
/// built again from the articles.
///
/// Changes to indexed articles reach the index through `articleSearchQueue` in the articles'
/// file, written by triggers in the transaction that changes them: the index writer applies
/// each article's first queued change (the text the index holds) and indexes its text as it is
/// now, in one transaction of the index file with the marks of what it holds.
final class SearchIndexFile: Sendable {
    /// The attached schema's name on the articles' connections.
    static let schema = "search"

    /// Where the index file is: `nil` for an in-memory database, whose index is an attached
    /// in-memory schema of the same connection.
    let path: String?
    private let storePath: String
    private let readOnly: Bool
    /// The index writer, opened on first use: a command that searches nothing never opens it.
    private let opened = Mutex<DatabaseQueue?>(nil)

    init(storePath: String, readOnly: Bool) {
        self.storePath = storePath
        self.readOnly = readOnly
        path = storePath == ":memory:" ? nil : Self.path(forStore: storePath)
    }

    /// The path of the index file beside the articles' file at `storePath`.
    static func path(forStore storePath: String) -> String { storePath + "-search" }

    /// Before any connection attaches the index file: removes one that SQLite cannot use as
    /// Tidings' index (not SQLite, another program's mark), with its log, so that it is built
    /// again; and sets up again one a process killed while setting it up left out of WAL or
    /// beside a rollback journal (the switch to WAL writes one), which a read-only attachment can
    /// neither roll back nor delete ("attempt to write a readonly database").
    static func prepareExisting(at path: String) {
        guard let header = try? AppDatabase.header(path), !header.isEmpty else { return }
        let application = AppDatabase.applicationID(inHeader: header)
        guard AppDatabase.isSQLite(header), application == 0 || application == applicationID else {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            return
        }
        // Header bytes 18 and 19 are 2 in WAL mode.
        let inWAL = header.count >= 20 && header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
        if !inWAL || FileManager.default.fileExists(atPath: path + "-journal") {
            // When this fails, the attachment reports the file as it finds it.
            try? setUp(at: path)
        }
    }

    /// The index file's `PRAGMA application_id`: "Tdgi".
    static let applicationID: UInt32 = 0x5464_6769

    /// Attaches the index to a connection of the articles' file (in prepareDatabase), read-only:
    /// a write transaction of the articles' file (GRDB begins them IMMEDIATE, which takes the
    /// write lock of every database attached for writing) then leaves the index's writer free.
    static func attach(_ db: Database, storePath: String, readOnly: Bool) throws {
        if storePath == ":memory:" {
            try db.execute(sql: "ATTACH DATABASE ':memory:' AS \(schema)")
            try createSchema(db, in: schema)
            return
        }
        let path = path(forStore: storePath)
        // A read-only database without an index file has no index to search.
        if readOnly, !FileManager.default.fileExists(atPath: path) { return }
        if !readOnly { try create(at: path) }
        try db.execute(sql: "ATTACH DATABASE ? AS \(schema)", arguments: [try readOnlyURI(path)])
        // A search reads a few index pages per term: a small cache, not a second full one on
        // every connection.
        try db.execute(sql: "PRAGMA \(schema).cache_size = -512")
    }

    /// `file:PATH?mode=ro`, for a read-only attachment.
    static func readOnlyURI(_ path: String) throws -> String {
        var components = URLComponents()
        components.scheme = "file"
        components.path = path
        components.queryItems = [URLQueryItem(name: "mode", value: "ro")]
        guard let uri = components.string else { throw StorageError.cannotOpen(path: path, reason: "not a file path") }
        return uri
    }

    /// Creates the index file, private to the user and in WAL mode, when there is none (or it
    /// is empty): a read-only attachment needs the file to exist, SQLite gives its log the
    /// file's mode, and the articles' writer sets every attached database to WAL, which a
    /// read-only attachment can take only when it is WAL already.
    static func create(at path: String) throws {
        var status = stat()
        if stat(path, &status) == 0, status.st_size > 0 { return }
        try setUp(at: path)
    }

    /// Creates the file if need be, and sets it to WAL with Tidings' mark on a connection that
    /// may write (which also rolls back or removes a journal a killed process left).
    private static func setUp(at path: String) throws {
        let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        var connection: OpaquePointer?
        defer { sqlite3_close(connection) }
        let failed: () -> StorageError = {
            let reason = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open it"
            return StorageError.cannotOpen(path: path, reason: reason)
        }
        // Another process starting on the same new home sets the file up at the same moment: wait
        // for its locks as every other connection waits (the switch to WAL takes its lock without
        // SQLite's busy handler, so that one is asked again), instead of failing at once.
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
            sqlite3_busy_timeout(connection, 5_000) == SQLITE_OK
        else { throw failed() }
        do {
            try AppDatabase.whileBusy(for: .seconds(5)) {
                let status = sqlite3_exec(
                    connection, "PRAGMA journal_mode = WAL; PRAGMA application_id = \(applicationID)", nil, nil, nil)
                guard status == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: status)) }
            }
        } catch {
            throw failed()
        }
    }

    /// The index tables in `schema` (the index file's `main`, or the attached in-memory
    /// `search`), if they are not there yet: the word index, the substring index, their
    /// vocabularies, and what the index holds.
    static func createSchema(_ db: Database, in schema: String) throws {
        guard
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM \(schema).sqlite_master WHERE name = 'searchState'") == 0
        else { return }
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE \(schema).articleSearch USING fts5(
                    title, body, content='', detail=none, columnsize=0,
                    tokenize='unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE \(schema).articleSubstring USING fts5(
                    title, body, content='', detail=none, columnsize=0, tokenize='tidings_trigram');
                CREATE VIRTUAL TABLE \(schema).articleSubstringTerms USING fts5vocab(articleSubstring, 'instance');
                CREATE VIRTUAL TABLE \(schema).articleSearchRows USING fts5vocab(articleSearch, 'row');
                CREATE VIRTUAL TABLE \(schema).articleSubstringRows USING fts5vocab(articleSubstring, 'row');
                INSERT INTO \(schema).articleSearch(articleSearch, rank) VALUES ('automerge', 8);
                INSERT INTO \(schema).articleSubstring(articleSubstring, rank) VALUES ('automerge', 8);
                CREATE TABLE \(schema).searchState (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    indexedThrough INTEGER NOT NULL,
                    appliedSeq INTEGER NOT NULL,
                    token TEXT NOT NULL);
                INSERT INTO \(schema).searchState (id, indexedThrough, appliedSeq, token) VALUES (1, 0, 0, '');
                """)
    }

    /// Runs `updates` in one transaction of the index writer: on a file database its own
    /// connection to the index file (articles readable as `store`), else `fallback`, the
    /// in-memory database's only connection.
    func write<T: Sendable>(
        fallback: any DatabaseWriter, _ updates: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        guard path != nil else { return try await fallback.write(updates) }
        return try await writer().write(updates)
    }

    /// Checkpoints the index file's log when it holds more than `limit` bytes (see
    /// `AppDatabase.checkpointIfLarge`); nothing when the writer was never opened.
    func checkpointIfLarge(limit: Int) throws {
        guard let path, let queue = opened.withLock({ $0 }) else { return }
        guard AppDatabase.fileSize(path + "-wal") > limit else { return }
        try queue.writeWithoutTransaction { db in _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// SQLite's and FTS5's own checks of the index, `["ok"]` when sound.
    func integrityCheck(fallback: any DatabaseWriter) throws -> [String] {
        let check: @Sendable (Database, String) throws -> [String] = { db, schema in
            var report = try String.fetchAll(db, sql: "PRAGMA \(schema).integrity_check")
            for table in ["articleSearch", "articleSubstring"] {
                do {
                    try db.execute(
                        sql: "INSERT INTO \(schema).\(table)(\(table), rank) VALUES ('integrity-check', 0)")
                } catch {
                    report.append("\(table): \(error)")
                }
            }
            return report.count == 1 ? report : report.filter { $0 != "ok" }
        }
        guard path != nil else { return try fallback.writeWithoutTransaction { db in try check(db, Self.schema) } }
        return try writer().writeWithoutTransaction { db in try check(db, "main") }
    }

    /// The index writer, opened (and its file set up) on first use.
    private func writer() throws -> DatabaseQueue {
        try opened.withLock { queue in
            if let queue { return queue }
            let made = try open()
            queue = made
            return made
        }
    }

    private func open() throws -> DatabaseQueue {
        guard let path else { throw StorageError.cannotOpen(path: storePath, reason: "no index file") }
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(5)
        configuration.label = "Tidings search index"
        let storePath = self.storePath
        configuration.prepareDatabase { db in
            try AppDatabase.prepareConnection(db)
            // Read-only, for the same reason as the articles' connections attach the index so.
            try db.execute(sql: "ATTACH DATABASE ? AS store", arguments: [try Self.readOnlyURI(storePath)])
            // The articles are read once each, in id order: no cache to speak of.
            try db.execute(sql: "PRAGMA store.cache_size = -256")
            try db.execute(sql: "PRAGMA main.cache_size = -512")
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        guard !readOnly else { return queue }
        try queue.writeWithoutTransaction { db in
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
            if try Int64.fetchOne(db, sql: "PRAGMA application_id") != Int64(Self.applicationID) {
                try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
            }
        }
        try queue.write { db in
            try Self.createSchema(db, in: "main")
            // Built for another articles' file (a file put back from a backup, a copy), or for
            // articles this file no longer has: built again from the articles.
            let token = try String.fetchOne(db, sql: "SELECT token FROM store.articleSearchIndexFile") ?? ""
            let state = try Row.fetchOne(db, sql: "SELECT indexedThrough, token FROM searchState")
            let through: Int64 = state?[0] ?? 0
            let stored: String = state?[1] ?? ""
            let newest = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM store.article") ?? 0
            guard stored != token || through > newest else { return }
            try db.execute(
                sql: """
                    INSERT INTO articleSearch(articleSearch) VALUES ('delete-all');
                    INSERT INTO articleSubstring(articleSubstring) VALUES ('delete-all');
                    UPDATE searchState SET indexedThrough = 0,
                        appliedSeq = (SELECT coalesce(max(seq), 0) FROM store.articleSearchQueue), token = ?;
                    """, arguments: [token])
        }
        return queue
    }
}
