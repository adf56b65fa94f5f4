internal import GRDB
public import Models

/// Saved searches (smart views): a name and the filter a front end saved for it, which it
/// alone reads. Names are unique, case ignored.
public struct SavedViewRepository: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// Every saved view, in the order they were saved.
    public func all() async throws(StorageError) -> [SavedView] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, definition FROM savedView ORDER BY id").map {
                SavedView(name: $0[0], definition: $0[1])
            }
        }
    }

    /// Saves `view`, replacing the one of the same name (case ignored); returns whether one was
    /// replaced.
    @discardableResult
    public func save(_ view: SavedView) async throws(StorageError) -> Bool {
        guard !view.name.isEmpty else { throw .missingField(entity: "view", field: "name") }
        return try await database.write(source: .user) { db in
            let replaced =
                try Bool.fetchOne(
                    db, sql: "SELECT count(*) > 0 FROM savedView WHERE name = ?", arguments: [view.name]) ?? false
            try db.execute(
                sql: """
                    INSERT INTO savedView (name, definition) VALUES (?, ?)
                    ON CONFLICT(name) DO UPDATE SET name = excluded.name, definition = excluded.definition
                    """, arguments: [view.name, view.definition])
            return replaced
        }
    }

    /// Removes the view named `name` (case ignored); returns whether there was one.
    @discardableResult
    public func remove(name: String) async throws(StorageError) -> Bool {
        try await database.write(source: .user) { db in
            try db.execute(sql: "DELETE FROM savedView WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }
}
