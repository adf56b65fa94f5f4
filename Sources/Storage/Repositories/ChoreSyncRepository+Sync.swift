public import Foundation
internal import GRDB
public import Models

/// A task as a sync compares it: the task, when it was last done, and the link of the article
/// it points to.
public struct ChoreSyncTask: Sendable, Hashable {
    /// The task as stored.
    public var task: HouseholdTask
    /// When it was done, oldest first.
    public var completions: [Date]
    /// The link of its article (a read-later task), if it has one.
    public var articleLink: URL?
    /// Its completions with the home that recorded each, oldest first.
    public var history: [TaskCompletion]
    /// The UID its parent chore is shared under (`RELATED-TO`), as a sync resolves it.
    public var parentUID: String?

    public init(
        task: HouseholdTask, completions: [Date] = [], articleLink: URL? = nil, history: [TaskCompletion]? = nil
    ) {
        self.history = history ?? completions.map { TaskCompletion(taskID: task.id, dueDate: nil, completedAt: $0) }
        self.task = task
        self.completions = completions
        self.articleLink = articleLink
    }
}

/// One write of a sync, applied in one transaction with the object it concerns, so that an
/// interruption (a kill, a full disk) never leaves a task without its object or the other way
/// round.
public enum ChoreSyncWrite: Sendable, Hashable {
    /// A task received from the server, its completion if it was done, and its object; not
    /// when the object is already another task's (another sync took it first).
    /// `history` holds the completions other homes recorded that are not here yet.
    case insert(HouseholdTask, completion: TaskCompletion?, item: ChoreSyncItem, history: [TaskCompletion] = [])
    /// A task changed by the server (or merged), saved only if it is still `expected`: a
    /// change made here meanwhile is never overwritten (the next sync merges it). Completions
    /// in `forgetting` (undone on another device) go.
    /// `history` as for an insert; the completions at the seconds in `forgettingHistory` were
    /// taken back on another device.
    case update(
        HouseholdTask, expected: HouseholdTask, completion: TaskCompletion?, item: ChoreSyncItem,
        forgetting: Range<Date>? = nil, history: [TaskCompletion] = [], forgettingHistory: [Date] = [])
    /// A task the server deleted, deleted only if it is still `expected`, and its object.
    case delete(expected: HouseholdTask, href: String)
    /// A task the server deleted, whose object reappears because it was changed here: only the
    /// object is saved (without an ETag, to be created again).
    case item(ChoreSyncItem)
    /// An object to forget (deleted on both sides).
    case forget(href: String)
    /// An object whose task was deleted here, now deleted on the server too: forgotten, but
    /// kept aside while `task undo` can bring the task back, which then gets it again (the same
    /// href, UID and other clients' properties) to be created anew on the server.
    case deleted(href: String)
    /// The object a task not yet on the server will be written as, saved before it is sent:
    /// saved only while the task exists and has no object, so two syncs never send one task
    /// twice under two UIDs.
    case reserve(ChoreSyncItem)
}

/// How a `ChoreSyncWrite` ended.
public enum ChoreSyncWriteResult: Sendable, Hashable {
    /// Written; the id of the task inserted or saved, if any.
    case written(taskID: Int64?)
    /// Nothing written: the task changed (or went, or already has an object) meanwhile.
    case stale
}

extension ChoreSyncRepository {
    /// Every task with its last completion and its article's link, and every object as last
    /// synced, read in one transaction.
    public func localState() async throws(StorageError) -> (tasks: [ChoreSyncTask], items: [ChoreSyncItem]) {
        try await database.read { db in
            var completions: [Int64: [TaskCompletion]] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT taskId, completedAt, device FROM taskCompletion ORDER BY taskId, completedAt")
            {
                let taskID: Int64 = row[0]
                completions[taskID, default: []].append(
                    TaskCompletion(
                        taskID: taskID, dueDate: nil, completedAt: Date(timeIntervalSince1970: row[1]), device: row[2]))
            }
            let links = try Dictionary(
                Row.fetchAll(
                    db,
                    sql: "SELECT id, link FROM article WHERE id IN (SELECT articleId FROM task) AND link IS NOT NULL"
                ).compactMap { (row: Row) -> (Int64, URL)? in
                    guard let link = URL(string: row[1]) else { return nil }
                    return (row[0], link)
                }, uniquingKeysWith: { first, _ in first })
            let tasks = try TaskRecord.fetchAll(db, sql: "SELECT * FROM task ORDER BY id").map { record in
                let task = record.task
                let history = task.id.flatMap { completions[$0] } ?? []
                return ChoreSyncTask(
                    task: task, completions: history.map(\.completedAt),
                    articleLink: task.articleID.flatMap { links[$0] }, history: history)
            }
            let items = try Row.fetchAll(
                db,
                sql:
                    "SELECT href, uid, taskId, etag, icalendar, fieldsVersion, pendingParent FROM choreSyncItem ORDER BY href"
            ).map {
                ChoreSyncItem(
                    href: $0[0], uid: $0[1], taskID: $0[2], etag: $0[3], icalendar: $0[4], fieldsVersion: $0[5],
                    pendingParent: $0[6])
            }
            return (tasks, items)
        }
    }

    /// The article whose link is `link`, for a task received with a `URL`; the newest when
    /// several feeds carry it.
    public func articleID(link: URL) async throws(StorageError) -> Int64? {
        try await database.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT id FROM article WHERE link = ? ORDER BY sortDate DESC LIMIT 1",
                arguments: [link.absoluteString])
        }
    }

    /// Applies one write of a sync in one transaction (see `ChoreSyncWrite`).
    ///
    /// - Throws: `StorageError` when the database fails; `.missingField` for a task without a
    ///   name.
    public func apply(_ write: ChoreSyncWrite, source: ChangeSource) async throws(StorageError)
        -> ChoreSyncWriteResult
    {
        switch write {
        case .insert(let task, _, _, _), .update(let task, _, _, _, _, _, _): try TaskRepository.validate(task)
        default: break
        }
        return try await database.write(source: source) { db -> ChoreSyncWriteResult in
            switch write {
            case .insert(let task, let completion, var item, let history):
                // Another sync (another process) has made this object a task meanwhile.
                guard
                    try Bool.fetchOne(
                        db,
                        sql:
                            "SELECT EXISTS (SELECT 1 FROM choreSyncItem WHERE (href = ? OR uid = ?) AND taskId IS NOT NULL)",
                        arguments: [item.href, item.uid]) == false
                else { return .stale }
                // A chore deleted here and kept because it changed there is a new task: undoing
                // the deletion must not bring the old one back beside it.
                try db.execute(
                    sql: """
                        DELETE FROM taskUndo WHERE taskId IN (
                            SELECT formerTaskId FROM choreSyncItem WHERE (href = ?1 OR uid = ?2) AND formerTaskId IS NOT NULL
                            UNION SELECT formerTaskId FROM choreSyncTombstone WHERE href = ?1 OR uid = ?2)
                        """,
                    arguments: [item.href, item.uid])
                try db.execute(
                    sql: "DELETE FROM choreSyncTombstone WHERE href = ? OR uid = ?", arguments: [item.href, item.uid])
                var record = TaskRecord(task)
                record.id = nil
                if let articleID = record.articleId, try !ArticleRecord.exists(db, key: articleID) {
                    record.articleId = nil
                }
                try record.insert(db)
                item.taskID = record.id
                try Self.complete(record.id, completion, db)
                for entry in history { try Self.complete(record.id, entry, db) }
                try Self.save(item, db)
                return .written(taskID: record.id)
            case .update(
                let task, let expected, let completion, var item, let forgetting, let history, let forgettingHistory):
                guard let id = expected.id, try TaskRecord.fetchOne(db, key: id)?.task == expected else {
                    return .stale
                }
                var record = TaskRecord(task)
                record.id = id
                if let articleID = record.articleId, try !ArticleRecord.exists(db, key: articleID) {
                    record.articleId = nil
                }
                try record.update(db)
                item.taskID = id
                if let forgetting {
                    try db.execute(
                        sql: "DELETE FROM taskCompletion WHERE taskId = ? AND completedAt >= ? AND completedAt < ?",
                        arguments: [
                            id, forgetting.lowerBound.timeIntervalSince1970,
                            forgetting.upperBound.timeIntervalSince1970,
                        ])
                }
                // What another device changed cannot be undone here: an undo would restore the
                // task as it was before, over that change.
                try db.execute(sql: "DELETE FROM taskUndo WHERE taskId = ?", arguments: [id])
                for second in forgettingHistory {
                    try db.execute(
                        sql: "DELETE FROM taskCompletion WHERE taskId = ? AND completedAt >= ? AND completedAt < ?",
                        arguments: [id, second.timeIntervalSince1970, second.timeIntervalSince1970 + 1])
                }
                try Self.complete(id, completion, db)
                for entry in history { try Self.complete(id, entry, db) }
                try Self.save(item, db)
                return .written(taskID: id)
            case .delete(let expected, let href):
                guard let id = expected.id, try TaskRecord.fetchOne(db, key: id)?.task == expected else {
                    return .stale
                }
                try TaskRecord.deleteOne(db, key: id)
                try db.execute(sql: "DELETE FROM choreSyncItem WHERE href = ?", arguments: [href])
                try db.execute(sql: "DELETE FROM taskUndo WHERE taskId = ?", arguments: [id])
                return .written(taskID: nil)
            case .item(let item):
                try Self.save(item, db)
                return .written(taskID: item.taskID)
            case .forget(let href):
                try db.execute(sql: "DELETE FROM choreSyncItem WHERE href = ?", arguments: [href])
                return .written(taskID: nil)
            case .deleted(let href):
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO choreSyncTombstone (formerTaskId, href, uid, icalendar)
                        SELECT formerTaskId, href, uid, icalendar FROM choreSyncItem
                        WHERE href = ? AND taskId IS NULL
                        AND formerTaskId IN (SELECT taskId FROM taskUndo WHERE kind = 'remove')
                        """,
                    arguments: [href])
                try db.execute(sql: "DELETE FROM choreSyncItem WHERE href = ?", arguments: [href])
                // Those no undo can bring back any more go.
                try db.execute(
                    sql: "DELETE FROM choreSyncTombstone WHERE formerTaskId NOT IN (SELECT taskId FROM taskUndo)")
                return .written(taskID: nil)
            case .reserve(let item):
                guard let taskID = item.taskID, try TaskRecord.exists(db, key: taskID),
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM choreSyncItem WHERE taskId = ? OR href = ? OR uid = ?)",
                        arguments: [taskID, item.href, item.uid]) == false
                else { return .stale }
                try Self.save(item, db)
                return .written(taskID: taskID)
            }
        }
    }

    private static func complete(_ taskID: Int64?, _ completion: TaskCompletion?, _ db: Database) throws {
        guard let taskID, let completion else { return }
        var record = TaskCompletionRecord(taskId: taskID, completion)
        try record.insert(db)
    }

    /// Saves an object as synced: a row with the same href is updated (keeping the task it
    /// was before a deletion here, for `task undo`), one with the same UID elsewhere replaced.
    static func save(_ item: ChoreSyncItem, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM choreSyncItem WHERE uid = ? AND href <> ?", arguments: [item.uid, item.href])
        try db.execute(
            sql: """
                INSERT INTO choreSyncItem (href, uid, taskId, etag, icalendar, fieldsVersion, pendingParent)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (href) DO UPDATE SET
                    uid = excluded.uid, taskId = excluded.taskId, etag = excluded.etag,
                    icalendar = excluded.icalendar, fieldsVersion = excluded.fieldsVersion,
                    pendingParent = excluded.pendingParent,
                    formerTaskId = CASE WHEN excluded.taskId IS NULL THEN formerTaskId END
                """,
            arguments: [
                item.href, item.uid, item.taskID, item.etag, item.icalendar, item.fieldsVersion, item.pendingParent,
            ])
    }

    /// Makes the task of the object at `href` a step of `parentID` (the parent it named has
    /// arrived), unless it has a parent already, and clears its pending parent; with `nil`,
    /// only clears it. One transaction.
    public func linkParent(href: String, parentID: Int64?, source: ChangeSource) async throws(StorageError) {
        try await database.write(source: source) { db in
            if let parentID,
                let taskID = try Int64.fetchOne(
                    db, sql: "SELECT taskId FROM choreSyncItem WHERE href = ?", arguments: [href]),
                taskID != parentID
            {
                try db.execute(
                    sql: "UPDATE task SET parentId = ? WHERE id = ? AND parentId IS NULL",
                    arguments: [parentID, taskID])
                if db.changesCount > 0 { database.tracker.record(.task, updated: [taskID]) }
            }
            try db.execute(sql: "UPDATE choreSyncItem SET pendingParent = NULL WHERE href = ?", arguments: [href])
        }
    }

    /// Marks the object at `href` as read with the current fields, and saves `task` (what the
    /// task took from it) when the task is still `expected`, in one transaction. Returns
    /// whether it was written (not when the task changed meanwhile).
    public func takeFields(href: String, task: HouseholdTask?, expected: HouseholdTask?, source: ChangeSource)
        async throws(StorageError) -> Bool
    {
        try await database.write(source: source) { db -> Bool in
            if let task, let id = task.id {
                guard try TaskRecord.fetchOne(db, key: id)?.task == expected else { return false }
                let record = TaskRecord(task)
                try record.update(db)
                database.tracker.record(.task, updated: [id])
            }
            try db.execute(
                sql: "UPDATE choreSyncItem SET fieldsVersion = ? WHERE href = ?",
                arguments: [ChoreSyncItem.currentFieldsVersion, href])
            return true
        }
    }
}
