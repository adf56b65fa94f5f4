import Foundation
internal import GRDB

/// The one database Tidings keeps: opens the file, configures SQLite, and runs the migrations.
///
/// A file database is a `DatabasePool` in WAL mode, so readers never wait for the writer;
/// foreign keys are on and a busy timeout lets two processes share the file. Repositories are
/// made from it; callers never see GRDB or SQL.
public final class AppDatabase: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// - Throws: `StorageError.notADatabase` for a file that is not SQLite,
    ///   `StorageError.newerSchema` for a file from a newer Tidings.
    public convenience init(path: String) throws(StorageError) {
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: Self.configuration())
        } catch {
            throw Self.storageError(error, path: path)
        }
        try self.init(writer: pool, path: path)
    }

    /// An empty in-memory database with the full schema, for tests and previews.
    public static func inMemory() throws(StorageError) -> AppDatabase {
        do {
            return try AppDatabase(writer: DatabaseQueue(configuration: configuration()), path: ":memory:")
        } catch {
            throw storageError(error, path: ":memory:")
        }
    }

    private init(writer: any DatabaseWriter, path: String) throws(StorageError) {
        self.writer = writer
        do {
            let migrator = Self.migrator
            let superseded = try writer.read { db in try migrator.hasBeenSuperseded(db) }
            if superseded { throw StorageError.newerSchema(path: path) }
            try migrator.migrate(writer)
        } catch let error as StorageError {
            throw error
        } catch {
            throw Self.storageError(error, path: path)
        }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.label = "Tidings"
        return configuration
    }

    static func storageError(_ error: any Error, path: String) -> StorageError {
        if let error = error as? StorageError { return error }
        if let error = error as? DatabaseError {
            if error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
                return .notADatabase(path: path)
            }
            return .sqlite(message: error.message ?? error.description)
        }
        return .sqlite(message: String(describing: error))
    }
}
