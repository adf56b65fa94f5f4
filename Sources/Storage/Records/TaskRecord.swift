import Foundation
internal import GRDB
import Models

/// A `task` row.
struct TaskRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "task"

    var id: Int64?
    var name: String
    var note: String?
    var dueDate: Double?
    var frequencyCount: Int?
    var frequencyUnit: String?
    var anchorDate: Double?
    var isDone: Bool
    var articleId: Int64?
    var createdAt: Double
    var modifiedAt: Double
    var dueTime: Int?
    var timeZone: String?
    var priority: Int?
    var list: String?
    var parentId: Int64?
    /// Minutes before due, comma-separated (`30,1440`).
    var reminders: String?
    /// The whole RRULE when the frequency has rule parts beyond count and unit.
    var rrule: String?

    init(_ task: HouseholdTask) {
        id = task.id
        name = task.name
        note = task.note
        dueDate = task.dueDate?.timeIntervalSince1970
        frequencyCount = task.frequency?.count
        frequencyUnit = task.frequency?.unit.rawValue
        anchorDate = task.anchorDate?.timeIntervalSince1970
        isDone = task.isDone
        articleId = task.articleID
        createdAt = task.createdAt.timeIntervalSince1970
        modifiedAt = task.modifiedAt.timeIntervalSince1970
        dueTime = task.dueTime?.minutesAfterMidnight
        timeZone = task.timeZone
        priority = task.priority?.rawValue
        list = task.list
        parentId = task.parentID
        reminders = task.reminders.isEmpty ? nil : task.reminders.map(String.init).joined(separator: ",")
        rrule = Self.rule(of: task.frequency)
    }

    /// Reads the columns by name: a task list decodes thousands of rows, and this is cheaper
    /// than `Decodable`.
    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        note = row["note"]
        dueDate = Self.bounded(row["dueDate"])
        frequencyCount = row["frequencyCount"]
        frequencyUnit = row["frequencyUnit"]
        anchorDate = Self.bounded(row["anchorDate"])
        isDone = row["isDone"]
        articleId = row["articleId"]
        createdAt = Self.bounded(row["createdAt"]) ?? 0
        modifiedAt = Self.bounded(row["modifiedAt"]) ?? 0
        dueTime = row["dueTime"]
        timeZone = row["timeZone"]
        priority = row["priority"]
        list = row["list"]
        parentId = row["parentId"]
        reminders = row["reminders"]
        rrule = row["rrule"]
    }

    /// A stored date within years 0001-9999: the schema accepts any REAL, and a value another
    /// program wrote (1e300, infinity) would otherwise reach date arithmetic and JSON encoding,
    /// which refuse it. NaN reads as no date.
    private static func bounded(_ seconds: Double?) -> Double? {
        seconds.flatMap(CivilDate.bounded)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Inserts the row (with its id when it has one, as `task undo` restores it) through one
    /// cached statement: GRDB's own insert reads the whole schema first, which a one-line
    /// `task add` paid on every start.
    mutating func insert(_ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO task (id, name, note, dueDate, frequencyCount, frequencyUnit, anchorDate, isDone, \
                articleId, createdAt, modifiedAt, dueTime, timeZone, priority, list, parentId, reminders, rrule) \
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        statement.setUncheckedArguments([
            id, name, note, dueDate, frequencyCount, frequencyUnit, anchorDate, isDone, articleId, createdAt,
            modifiedAt, dueTime, timeZone, priority, list, parentId, reminders, rrule,
        ])
        try statement.execute()
        id = db.lastInsertedRowID
    }

    var task: HouseholdTask {
        var frequency: Frequency?
        if let frequencyCount, let unit = frequencyUnit.flatMap(Frequency.Unit.init(rawValue:)) {
            frequency = try? Frequency(count: frequencyCount, unit: unit)
        }
        if let rrule, let ruled = Self.frequency(rule: rrule) { frequency = ruled }
        // Values another program wrote are read leniently: a time, priority or reminder out of
        // range is none rather than an error that would hide the task.
        let minutes = (reminders ?? "").split(separator: ",").compactMap { Int($0) }
        return HouseholdTask(
            id: id, name: name, note: note, dueDate: dueDate.map(Date.init(timeIntervalSince1970:)),
            frequency: frequency, anchorDate: anchorDate.map(Date.init(timeIntervalSince1970:)), isDone: isDone,
            articleID: articleId, dueTime: dueTime.flatMap(TimeOfDay.init(minutesAfterMidnight:)),
            timeZone: timeZone, priority: priority.flatMap(TaskPriority.init(iCalendar:)), list: list,
            parentID: parentId, reminders: minutes.filter { abs($0) <= TaskReminder.maximumMinutes }.sorted(),
            createdAt: Date(timeIntervalSince1970: createdAt), modifiedAt: Date(timeIntervalSince1970: modifiedAt))
    }

    /// The RRULE stored for `frequency`: only when it has rule parts beyond count and unit.
    static func rule(of frequency: Frequency?) -> String? {
        guard let frequency,
            !frequency.weekdays.isEmpty || !frequency.monthDays.isEmpty || !frequency.setPositions.isEmpty
        else { return nil }
        return frequency.rruleValue
    }

    /// The frequency a stored RRULE names; `nil` when it cannot be read (the count and unit
    /// columns then stand).
    static func frequency(rule: String) -> Frequency? {
        try? Frequency(rrule: rule)
    }
}

/// A `taskCompletion` row.
struct TaskCompletionRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "taskCompletion"

    var id: Int64?
    var taskId: Int64
    var dueDate: Double?
    var completedAt: Double
    var device: String?

    init(taskId: Int64, _ completion: TaskCompletion) {
        self.taskId = taskId
        device = completion.device
        dueDate = completion.dueDate?.timeIntervalSince1970
        completedAt = completion.completedAt.timeIntervalSince1970
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var completion: TaskCompletion {
        TaskCompletion(
            taskID: taskId, dueDate: dueDate.map(Date.init(timeIntervalSince1970:)),
            completedAt: Date(timeIntervalSince1970: completedAt), device: device)
    }
}

/// A `taskUndo` row: how to undo one task change (see `TaskRepository.undo(source:)`).
struct TaskUndoRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "taskUndo"

    var id: Int64?
    var kind: String
    var taskId: Int64
    /// The task row before the change, as JSON; NULL for an add.
    var task: String?
    /// The completion rows a removal deleted, as JSON.
    var completions: String?
    /// The completion row a completion added.
    var completionId: Int64?
    /// The ids of the steps a removed task had, as JSON.
    var steps: String?

    init(kind: String, taskId: Int64) {
        self.kind = kind
        self.taskId = taskId
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Inserts the row through one cached statement (see `TaskRecord.insert(_:)`).
    mutating func insert(_ db: Database) throws {
        let statement = try db.cachedStatement(
            sql:
                "INSERT INTO taskUndo (id, kind, taskId, task, completions, completionId, steps) VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        statement.setUncheckedArguments([id, kind, taskId, task, completions, completionId, steps])
        try statement.execute()
        id = db.lastInsertedRowID
    }
}
