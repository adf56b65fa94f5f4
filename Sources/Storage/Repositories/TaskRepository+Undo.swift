import Foundation
internal import GRDB
public import Models

extension TaskRepository {
    /// Changes the stored task `id` in one transaction: `change` receives the task as stored and
    /// returns the new task and, when the change is a completion, the completion to record.
    /// When `change` returns `nil` nothing is written and `nil` is returned.
    ///
    /// Reading and writing in the same transaction means two writers completing the same task
    /// at once both move it forward, rather than the second overwriting the first.
    ///
    /// - Throws: `StorageError.notFound` for an unknown task (or linked article),
    ///   `.missingField(entity: "task", field: "name")` when the new task has a blank name.
    public func update(
        id: Int64, source: ChangeSource = .user, undoable: Bool = false,
        _ change: @escaping @Sendable (HouseholdTask) -> (task: HouseholdTask, completion: TaskCompletion?)?
    ) async throws(StorageError) -> HouseholdTask? {
        let tracker = database.tracker
        let history = undoable ? UndoHistory(limit: undoLimit) : nil
        return try await database.write(source: source) { db -> HouseholdTask? in
            guard let before = try TaskRecord.fetchOne(db, key: id) else {
                throw StorageError.notFound(entity: "task", id: id)
            }
            guard let (changed, completion) = change(before.task) else { return nil }
            var task = changed
            task.id = id
            try Self.validate(task)
            let record = TaskRecord(task)
            try Self.checkArticle(record.articleId, db)
            try record.update(db)
            guard let completion else {
                try history?.record(.edit, before: before, db)
                return record.task
            }
            var completionRecord = TaskCompletionRecord(taskId: id, completion)
            try completionRecord.insert(db)
            tracker.record(.task, updated: [id])
            try history?.record(.complete, before: before, completionID: completionRecord.id, db)
            return record.task
        }
    }

    /// Undoes the newest recorded change, restoring exactly the state before it (completion
    /// records included), and forgets it. Returns `nil` when the history is empty.
    public func undo(source: ChangeSource = .user) async throws(StorageError) -> UndoneTaskChange? {
        let tracker = database.tracker
        return try await database.write(source: source) { db -> UndoneTaskChange? in
            guard let entry = try TaskUndoRecord.order(Column("id").desc).fetchOne(db) else { return nil }
            try entry.delete(db)
            guard let kind = TaskChangeKind(rawValue: entry.kind) else {
                throw StorageError.sqlite(message: "unknown undo entry kind \(entry.kind)")
            }
            let taskID = entry.taskId
            guard kind != .add else {
                try TaskRecord.deleteOne(db, key: taskID)
                return UndoneTaskChange(kind: kind, taskID: taskID, task: nil)
            }
            guard let json = entry.task, var before = try? JSONDecoder().decode(TaskRecord.self, from: Data(json.utf8))
            else { throw StorageError.sqlite(message: "the undo entry for task #\(taskID) is damaged") }
            // A linked article may have gone since; the link then goes, as it would have.
            if let articleID = before.articleId, try !ArticleRecord.exists(db, key: articleID) {
                before.articleId = nil
            }
            if try TaskRecord.exists(db, key: taskID) { try before.update(db) } else { try before.insert(db) }
            if kind == .complete, let completionID = entry.completionId {
                try TaskCompletionRecord.deleteOne(db, key: completionID)
                tracker.record(.task, updated: [taskID])
            }
            if kind == .remove, let json = entry.completions {
                let completions = (try? JSONDecoder().decode([TaskCompletionRecord].self, from: Data(json.utf8))) ?? []
                for var completion in completions {
                    if let id = completion.id, try TaskCompletionRecord.exists(db, key: id) { continue }
                    try completion.insert(db)
                }
            }
            // Its steps are its steps again, those that have not been given another parent since.
            if kind == .remove, let json = entry.steps,
                let steps = try? JSONDecoder().decode([Int64].self, from: Data(json.utf8)), !steps.isEmpty
            {
                var relinked: [Int64] = []
                for step in steps where step != taskID {
                    try db.execute(
                        sql: "UPDATE task SET parentId = ? WHERE id = ? AND parentId IS NULL", arguments: [taskID, step])
                    if db.changesCount > 0 { relinked.append(step) }
                }
                if !relinked.isEmpty { tracker.record(.task, updated: relinked) }
            }
            return UndoneTaskChange(kind: kind, taskID: taskID, task: before.task)
        }
    }

    /// How many changes the stored history holds.
    public func undoableChangeCount() async throws(StorageError) -> Int {
        try await database.read { db in try TaskUndoRecord.fetchCount(db) }
    }

    static func validate(_ task: HouseholdTask) throws(StorageError) {
        do {
            try task.validate()
        } catch {
            if case .missingField(let field) = error { throw .missingField(entity: "task", field: field) }
            throw .sqlite(message: error.localizedDescription)
        }
    }

    /// Fails with `notFound` when a task links to an article that does not exist (instead of
    /// SQLite's anonymous foreign-key failure).
    static func checkArticle(_ articleID: Int64?, _ db: Database) throws {
        if let articleID, try !ArticleRecord.exists(db, key: articleID) {
            throw StorageError.notFound(entity: "article", id: articleID)
        }
    }
}

/// Writes undo entries inside a repository's write transaction and keeps the newest `limit`.
struct UndoHistory {
    let limit: Int

    func recordAdd(taskID: Int64, _ db: Database) throws {
        try insert(TaskUndoRecord(kind: TaskChangeKind.add.rawValue, taskId: taskID), db)
    }

    func record(
        _ kind: TaskChangeKind, before: TaskRecord, completionID: Int64? = nil,
        completions: [TaskCompletionRecord] = [], steps: [Int64] = [], _ db: Database
    ) throws {
        guard let taskID = before.id else { return }
        var entry = TaskUndoRecord(kind: kind.rawValue, taskId: taskID)
        let encoder = JSONEncoder()
        entry.task = String(decoding: try encoder.encode(before), as: UTF8.self)
        entry.completionId = completionID
        if !completions.isEmpty { entry.completions = String(decoding: try encoder.encode(completions), as: UTF8.self) }
        if !steps.isEmpty { entry.steps = String(decoding: try encoder.encode(steps), as: UTF8.self) }
        try insert(entry, db)
    }

    private func insert(_ entry: TaskUndoRecord, _ db: Database) throws {
        var entry = entry
        try entry.insert(db)
        // Everything older than the `limit`-th newest entry goes (a no-op until there are more).
        try db.execute(
            sql: "DELETE FROM taskUndo WHERE id < (SELECT id FROM taskUndo ORDER BY id DESC LIMIT 1 OFFSET ?)",
            arguments: [limit - 1])
    }
}
