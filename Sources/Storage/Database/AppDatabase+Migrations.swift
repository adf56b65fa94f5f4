internal import GRDB

extension AppDatabase {
    /// Every schema change, in order. Never edit a migration that has shipped: add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: config cache") { db in
            try db.create(table: "configCache") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("body", .blob).notNull()
                table.column("etag", .text)
                table.column("lastModified", .text)
                table.column("fetchedAt", .datetime).notNull()
            }
        }
        return migrator
    }
}
