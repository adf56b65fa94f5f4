internal import GRDB
import Models

/// Bringing a file to this version's schema, while other processes may open it too.
extension AppDatabase {
    /// The schema this version writes, as `PRAGMA user_version`: how many migrations it knows.
    /// Set once every migration has run, so the next start checks one number instead of the
    /// migrations table; a file from before the number (0), from an earlier version (less) or
    /// from a later one (more, refused by the migrator's check) takes the full path.
    static let schemaVersion = migrator.migrations.count

    /// Runs the migrations this file lacks, after refusing a file a later version migrated;
    /// read-only, only checks that none is lacking.
    static func migrate(_ writer: any DatabaseWriter, path: String, readOnly: Bool) throws {
        let migrator = Self.migrator
        let known = Set(migrator.migrations)
        if try !writer.writeWithoutTransaction({ db in try appliedMigrations(db) }).isSubset(of: known) {
            throw StorageError.newerSchema(path: path)
        }
        if readOnly {
            guard try writer.writeWithoutTransaction({ db in try appliedMigrations(db) }).isSuperset(of: known) else {
                throw StorageError.cannotOpen(
                    path: path, reason: "it needs an upgrade to this version's schema, which read-only forbids")
            }
        } else {
            // A new file frees the pages a purge empties (`ArticleRepository.purge`): the mode
            // holds only when it is set before the first table.
            try writer.writeWithoutTransaction { db in
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 {
                    try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                }
            }
            try migrate(writer, with: migrator)
            // The number goes in only in a transaction that sees every migration of this
            // version and none of a later one: a later version migrating the file meanwhile
            // keeps its own number, and this version refuses the file at its next start.
            try writer.write { db in
                guard try appliedMigrations(db) == known else { return }
                try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
            }
        }
    }

    /// Runs `migrator`'s missing migrations on `writer`, while other processes may run them too.
    /// Two processes starting on a new file both find every migration missing, and the second
    /// to run one fails on what the first has just made ("table feed already exists"). Each
    /// migration is a transaction of its own, so a failed one leaves nothing: the migrator runs
    /// again, from what is applied now, for as long as each failure comes with progress (a
    /// migration applied meanwhile, by either process). A migration that fails with nobody
    /// making progress fails the open.
    static func migrate(_ writer: any DatabaseWriter, with migrator: DatabaseMigrator) throws {
        var applied = try writer.writeWithoutTransaction { db in try appliedMigrations(db) }
        while true {
            do {
                return try migrator.migrate(writer)
            } catch {
                let now = try writer.writeWithoutTransaction { db in try appliedMigrations(db) }
                guard now.count > applied.count else { throw error }
                applied = now
            }
        }
    }

    /// The migrations applied to the file, those of later versions included. GRDB's own query
    /// reads the table first and asks whether it exists only after that failed, so that another
    /// process creating it in between turns "none yet" into "no such table: grdb_migrations";
    /// here the table's existence is asked first, and a table, once made, is never dropped.
    static func appliedMigrations(_ db: Database) throws -> Set<String> {
        guard
            try Bool.fetchOne(
                db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'")
                == true
        else { return [] }
        return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
    }
}
