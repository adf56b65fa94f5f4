import Foundation
internal import GRDBSQLite
import Models

/// What a file on disk is, read before SQLite opens it for writing: its header, its mark, its
/// log, its tables. A foreign or damaged file is refused without anything written beside it.
extension AppDatabase {
    /// The `PRAGMA application_id` a file's header holds (bytes 68-71; 0 for none).
    static func applicationID(inHeader header: Data) -> UInt32 {
        header.count >= 72 ? header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : 0
    }

    /// Whether `header` is SQLite's (an empty file is not).
    static func isSQLite(_ header: Data) -> Bool { header.starts(with: Data("SQLite format 3\0".utf8)) }

    /// The first 100 bytes of the file, SQLite's header (empty for an empty file), read before
    /// SQLite opens it so that nothing (not even a WAL file) is written beside a foreign file.
    static func header(_ path: String) throws(StorageError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: "the file cannot be read")
        }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 100)) ?? Data()
    }

    /// Whether an unmarked SQLite file holds tables that are not Tidings' schema (someone
    /// else's database, WAL or not). An empty file is Tidings' to set up. Read as an immutable
    /// file, so SQLite changes nothing and creates no `-wal` or `-shm` beside it; only when the
    /// file has no tables but a WAL beside it (a writer killed before its checkpoint) is the WAL
    /// read too, through a read-only connection.
    static func holdsForeignSchema(_ path: String) throws(StorageError) -> Bool {
        var tables = try schema(path, immutable: true)
        if tables.isEmpty, hasWAL(path) {
            // A writer killed before its first checkpoint: its tables are only in the WAL, which
            // a read-only connection cannot recover. What cannot be read is most likely Tidings'
            // own first start cut short, and the file holds nothing yet: it is opened.
            guard let fromWAL = try? schema(path, immutable: false) else { return false }
            tables = fromWAL
        }
        if tables.isEmpty { return false }
        // GRDB creates its migrations table, commits, then runs each migration in a transaction
        // of its own: a first start cut short leaves that table alone and empty.
        if tables.tables == ["grdb_migrations"], tables.migrations.isEmpty { return false }
        return !tables.tables.isSuperset(of: Self.tablesOfTheFirstMigration) || !tables.migrations.contains("v1")
    }

    /// The tables every Tidings file has had since its first migration (`httpCache` too, until
    /// `v7` dropped it): a file holding less is someone else's.
    /// (Not the search index's tables, which `v28` moved to a file of their own.)
    static let tablesOfTheFirstMigration: Set<String> = [
        "grdb_migrations", "feed", "article", "articleStatus", "task", "taskCompletion", "configCache",
    ]

    /// Whether a non-empty `-wal` file lies beside `path`.
    static func hasWAL(_ path: String) -> Bool {
        fileSize(path + "-wal") > 0
    }

    /// The size in bytes of the file at `path`, 0 when there is none. `stat(2)`, not
    /// `FileManager.attributesOfItem`, which also looks up the owner's and group's names in the
    /// user database (a third of a millisecond on every start and exit).
    static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// The table names of the file at `path` and the GRDB migrations applied to it, read with
    /// SQLite's C interface (a URI filename, read-only).
    private static func schema(_ path: String, immutable: Bool) throws(StorageError) -> (
        tables: Set<String>, migrations: Set<String>, isEmpty: Bool
    ) {
        var components = URLComponents()
        components.scheme = "file"
        components.path = path
        components.queryItems = [URLQueryItem(name: immutable ? "immutable" : "mode", value: immutable ? "1" : "ro")]
        guard let uri = components.string else { throw .notADatabase(path: path) }
        var connection: OpaquePointer?
        defer { sqlite3_close(connection) }
        guard sqlite3_open_v2(uri, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK else {
            throw .notADatabase(path: path)
        }
        func strings(_ sql: String) throws(StorageError) -> Set<String> {
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else {
                throw .notADatabase(path: path)
            }
            var rows: Set<String> = []
            while true {
                switch sqlite3_step(statement) {
                case SQLITE_ROW: rows.insert(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
                case SQLITE_DONE: return rows
                default: throw .notADatabase(path: path)
                }
            }
        }
        // Every schema object counts (views, triggers, SQLite's own statistics tables), and so
        // does a user_version: an empty file has none of them.
        let objects = try strings("SELECT type || ' ' || name FROM sqlite_master")
        let tables = try strings("SELECT name FROM sqlite_master WHERE type = 'table'")
        let version = try strings("PRAGMA user_version")
        let migrations = tables.contains("grdb_migrations") ? try strings("SELECT identifier FROM grdb_migrations") : []
        return (tables, migrations, objects.isEmpty && version.allSatisfy { $0 == "0" })
    }
}
