internal import GRDB
public import Models

/// Settings by key (`setting`): what a front end keeps between processes. Values are text; the
/// front end reads and checks them.
public struct SettingRepository: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// Every setting whose key starts with `prefix`, by key.
    public func all(prefix: String = "") async throws(StorageError) -> [String: String] {
        try await database.read { db in
            var settings: [String: String] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT key, value FROM setting WHERE substr(key, 1, length(?)) = ?",
                arguments: [prefix, prefix])
            {
                settings[row[0]] = row[1]
            }
            return settings
        }
    }

    /// One setting, read on the writer's connection: a command that reads one setting at start
    /// (`color`) opens no reader for it.
    public func value(_ key: String) async throws(StorageError) -> String? {
        try await database.readOnWriter { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
        }
    }

    /// Sets `key` to `value`, or removes it when `value` is `nil`.
    public func set(_ key: String, to value: String?) async throws(StorageError) {
        try await database.write(source: .user) { db in
            if let value {
                try db.execute(
                    sql:
                        "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            }
        }
    }
}
