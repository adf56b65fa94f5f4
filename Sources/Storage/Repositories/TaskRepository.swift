public import Foundation
internal import GRDB
public import Models

/// Which tasks a list shows.
public enum TaskFilter: Sendable, Hashable {
    /// Tasks not yet done, by next due date then name (ignoring case), undated last.
    case open
    /// Done one-off tasks, most recently changed first.
    case done
    /// Every task: open ones first (as `.open`), then done ones.
    case all
    /// Open tasks due before a date (overdue, when the date is the start of today).
    case dueBefore(Date)
    /// Open tasks due at or after the first date and before the second.
    case dueBetween(Date, Date)
}

/// Household tasks and their completions.
///
/// Writes made with `undoable: true` also record, in the same transaction, how to restore the
/// state before them; `undo(source:)` restores the newest recorded change. The history is
/// stored, so it survives a restart, and keeps the newest `undoLimit` changes.
public struct TaskRepository: Sendable {
    let database: AppDatabase
    /// How many undoable changes the stored history keeps.
    public let undoLimit: Int

    /// Creates the repository over a database, keeping the newest `undoLimit` undoable changes.
    public init(database: AppDatabase, undoLimit: Int = 100) {
        self.database = database
        self.undoLimit = max(1, undoLimit)
    }

    /// Inserts a new task (no id) or saves every field of an existing one, and returns it with
    /// its id. The caller receives success or the error once the transaction has ended.
    ///
    /// - Throws: `StorageError.missingField(entity: "task", field: "name")` for a blank name,
    ///   `.notFound` for an id that does not exist or a linked article that does not.
    public func save(_ task: HouseholdTask, source: ChangeSource = .user, undoable: Bool = false)
        async throws(StorageError) -> HouseholdTask
    {
        try Self.validate(task)
        let history = undoable ? UndoHistory(limit: undoLimit) : nil
        return try await database.write(source: source) { db in
            var record = TaskRecord(task)
            try Self.checkArticle(record.articleId, db)
            if let id = record.id {
                guard let before = try TaskRecord.fetchOne(db, key: id) else {
                    throw StorageError.notFound(entity: "task", id: id)
                }
                try record.update(db)
                try history?.record(.edit, before: before, db)
            } else {
                try record.insert(db)
                if let id = record.id { try history?.recordAdd(taskID: id, db) }
            }
            return record.task
        }
    }

    /// Saves a task after it was done and records the completion, in one transaction.
    public func complete(
        _ task: HouseholdTask, completion: TaskCompletion, source: ChangeSource = .user, undoable: Bool = false
    ) async throws(StorageError) -> HouseholdTask {
        guard let id = task.id else { throw .notFound(entity: "task", id: 0) }
        let tracker = database.tracker
        let history = undoable ? UndoHistory(limit: undoLimit) : nil
        return try await database.write(source: source) { db in
            guard let before = try TaskRecord.fetchOne(db, key: id) else {
                throw StorageError.notFound(entity: "task", id: id)
            }
            let record = TaskRecord(task)
            try record.update(db)
            var completionRecord = TaskCompletionRecord(taskId: id, completion)
            try completionRecord.insert(db)
            tracker.record(.task, updated: [id])
            try history?.record(.complete, before: before, completionID: completionRecord.id, db)
            return record.task
        }
    }

    /// Deletes a task and its completions.
    public func delete(id: Int64, source: ChangeSource = .user, undoable: Bool = false) async throws(StorageError) {
        let history = undoable ? UndoHistory(limit: undoLimit) : nil
        try await database.write(source: source) { db in
            guard let before = try TaskRecord.fetchOne(db, key: id) else {
                throw StorageError.notFound(entity: "task", id: id)
            }
            let completions = try history == nil ? [] : TaskCompletionRecord.filter(Column("taskId") == id).fetchAll(db)
            let steps =
                try history == nil ? [] : Int64.fetchAll(db, sql: "SELECT id FROM task WHERE parentId = ?", arguments: [id])
            try TaskRecord.deleteOne(db, key: id)
            try history?.record(.remove, before: before, completions: completions, steps: steps, db)
        }
    }

    /// The task with `id`.
    public func task(id: Int64) async throws(StorageError) -> HouseholdTask? {
        try await database.read { db in try TaskRecord.fetchOne(db, key: id)?.task }
    }

    /// The tasks a filter selects, in its order.
    public func tasks(_ filter: TaskFilter) async throws(StorageError) -> [HouseholdTask] {
        try await database.read { db in
            // Within a day: a chore of the whole day first, then by time, then high priority first.
            let byDue =
                "dueDate IS NULL, dueDate, dueTime IS NOT NULL, dueTime, coalesce(priority, 10), "
                + "name COLLATE NOCASE, name, id"
            let sql: String
            var arguments = StatementArguments()
            switch filter {
            case .open:
                sql = "SELECT * FROM task WHERE isDone = 0 ORDER BY \(byDue)"
            case .done:
                sql = "SELECT * FROM task WHERE isDone = 1 ORDER BY modifiedAt DESC, id DESC"
            case .all:
                sql = "SELECT * FROM task ORDER BY isDone, \(byDue)"
            case .dueBefore(let date):
                sql = "SELECT * FROM task WHERE isDone = 0 AND dueDate < ? ORDER BY \(byDue)"
                arguments = [date.timeIntervalSince1970]
            case .dueBetween(let start, let end):
                sql = "SELECT * FROM task WHERE isDone = 0 AND dueDate >= ? AND dueDate < ? ORDER BY \(byDue)"
                arguments = [start.timeIntervalSince1970, end.timeIntervalSince1970]
            }
            return try TaskRecord.fetchAll(db, sql: sql, arguments: arguments).map(\.task)
        }
    }

    /// The recorded completions of a task, oldest first.
    public func completions(taskID: Int64) async throws(StorageError) -> [TaskCompletion] {
        try await database.read { db in
            try TaskCompletionRecord.filter(Column("taskId") == taskID).order(Column("completedAt"), Column("id"))
                .fetchAll(db).map(\.completion)
        }
    }

    /// Every completion of every task, newest first, at most `limit`.
    public func recentCompletions(limit: Int) async throws(StorageError) -> [TaskCompletion] {
        try await database.read { db in
            try TaskCompletionRecord.order(Column("completedAt").desc, Column("id").desc).limit(max(0, limit))
                .fetchAll(db).map(\.completion)
        }
    }

    /// The newest completion of each task that has one, by task id.
    public func lastCompletions() async throws(StorageError) -> [Int64: TaskCompletion] {
        try await database.read { db in
            let records = try TaskCompletionRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM taskCompletion AS c WHERE c.id = (SELECT id FROM taskCompletion \
                    WHERE taskId = c.taskId ORDER BY completedAt DESC, id DESC LIMIT 1)
                    """)
            return Dictionary(records.map { ($0.taskId, $0.completion) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The lists chores are on (`nil` the default list), with how many open chores each has and
    /// how many in all, by name.
    public func lists() async throws(StorageError) -> [(name: String?, open: Int, total: Int)] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT list, sum(isDone = 0) AS open, count(*) AS total FROM task GROUP BY list \
                    ORDER BY list IS NOT NULL, list COLLATE NOCASE
                    """
            ).map { (name: $0["list"], open: $0["open"], total: $0["total"]) }
        }
    }

    /// The task now and after every change (completions included); `nil` once when deleted.
    public func observe(id: Int64) -> AsyncStream<HouseholdTask?> {
        database.observe(.task, id: id) { db in try TaskRecord.fetchOne(db, key: id)?.task }
    }
}
