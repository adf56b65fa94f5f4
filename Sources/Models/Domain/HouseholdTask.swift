public import Foundation

/// A household chore: one-off or recurring, with an optional due date and a history of
/// completions.
public struct HouseholdTask: Sendable, Hashable, Codable, Identifiable {
    /// The stored row id; `nil` until the task is saved.
    public var id: Int64?
    /// What to do (`Take out the bins`); never blank.
    public var name: String
    /// Free text about the task.
    public var note: String?
    /// When it is next due; for recurring tasks the next occurrence. Due dates are days: the
    /// Feed module's `TaskService` stores a due day as 00:00 UTC of that day, so it reads the
    /// same in every time zone (format it in UTC, or use `dueDay`).
    public var dueDate: Date?
    /// How often it comes back; `nil` for a one-off task.
    public var frequency: Frequency?
    /// The occurrence a recurring task's rhythm counts from: its first due date since the
    /// schedule was set. Occurrences are this date plus whole periods, so a monthly chore due on
    /// the 31st comes back on the last day of shorter months and on the 31st again after them
    /// (Jan 31 → Feb 28 → Mar 31). `nil` counts from `dueDate`.
    public var anchorDate: Date?
    /// Whether a one-off task has been done. Recurring tasks never become done.
    public var isDone: Bool
    /// The article a "read later" task links to.
    public var articleID: Int64?
    /// The time of day it is due at, on `dueDate`'s day; `nil` for a chore due on a day
    /// (iCalendar's `VALUE=DATE`).
    public var dueTime: TimeOfDay?
    /// The IANA time zone `dueTime` is in (`Europe/Berlin`); `nil` is the user's own.
    public var timeZone: String?
    /// How much it matters; `nil` for none.
    public var priority: TaskPriority?
    /// The list it belongs to (`groceries`); `nil` for the default list.
    public var list: String?
    /// The chore it is a step of (iCalendar's `RELATED-TO`); `nil` for a chore of its own.
    public var parentID: Int64?
    /// Its reminders, in minutes before it is due (`30` for half an hour before), ascending.
    public var reminders: [Int]
    /// When the task was created.
    public var createdAt: Date
    /// When the task was last changed.
    public var modifiedAt: Date

    // Acronym properties get explicit keys spelled the way a snake_case round trip spells them
    // (`feed_id` ↔ `feedId`), so `JSONCoding`'s coders read back exactly what they wrote.
    private enum CodingKeys: String, CodingKey {
        case id, name, note, dueDate, frequency, anchorDate, isDone, createdAt, modifiedAt
        case articleID = "articleId"
        case dueTime, timeZone, priority, list, reminders
        case parentID = "parentId"
    }

    public init(
        id: Int64? = nil, name: String, note: String? = nil, dueDate: Date? = nil,
        frequency: Frequency? = nil, anchorDate: Date? = nil, isDone: Bool = false, articleID: Int64? = nil,
        dueTime: TimeOfDay? = nil, timeZone: String? = nil, priority: TaskPriority? = nil, list: String? = nil,
        parentID: Int64? = nil, reminders: [Int] = [], createdAt: Date, modifiedAt: Date? = nil
    ) {
        self.dueTime = dueTime
        self.timeZone = timeZone
        self.priority = priority
        self.list = list
        self.parentID = parentID
        self.reminders = reminders
        self.id = id
        self.name = name
        self.note = note
        self.dueDate = dueDate
        self.frequency = frequency
        self.anchorDate = anchorDate
        self.isDone = isDone
        self.articleID = articleID
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt ?? createdAt
    }

    /// Decodes a task; the fields added after the first version (`dueTime`, `timeZone`,
    /// `priority`, `list`, `parentId`, `reminders`) may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        dueDate = try container.decodeIfPresent(Date.self, forKey: .dueDate)
        frequency = try container.decodeIfPresent(Frequency.self, forKey: .frequency)
        anchorDate = try container.decodeIfPresent(Date.self, forKey: .anchorDate)
        isDone = try container.decode(Bool.self, forKey: .isDone)
        articleID = try container.decodeIfPresent(Int64.self, forKey: .articleID)
        dueTime = try container.decodeIfPresent(TimeOfDay.self, forKey: .dueTime)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        priority = try container.decodeIfPresent(TaskPriority.self, forKey: .priority)
        list = try container.decodeIfPresent(String.self, forKey: .list)
        parentID = try container.decodeIfPresent(Int64.self, forKey: .parentID)
        reminders = try container.decodeIfPresent([Int].self, forKey: .reminders) ?? []
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        modifiedAt = try container.decode(Date.self, forKey: .modifiedAt)
    }

    /// Whether the task comes back after it is done.
    public var isRecurring: Bool { frequency != nil }

    /// Checks the fields a task cannot be saved without.
    ///
    /// - Throws: `ModelError.missingField("name")` when the name is blank.
    public func validate() throws(ModelError) {
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw .missingField("name") }
    }

    /// The task after being done at `date`: a recurring task moves to its next occurrence
    /// (see `Frequency.nextDueDate(from:after:completedAt:calendar:)`), counted from its anchor so
    /// month ends do not drift; a one-off task becomes done. A recurring task without a due date
    /// is anchored on the completion day.
    public func completed(at date: Date, calendar: Calendar) -> (task: HouseholdTask, completion: TaskCompletion) {
        var next = self
        next.modifiedAt = date
        if let frequency {
            let due = dueDate ?? calendar.startOfDay(for: date)
            let anchor = anchorDate ?? due
            next.anchorDate = anchor
            next.dueDate = frequency.nextDueDate(from: anchor, after: due, completedAt: date, calendar: calendar)
        } else {
            next.isDone = true
        }
        return (next, TaskCompletion(taskID: id, dueDate: dueDate, completedAt: date))
    }
}

/// One time a task was done.
public struct TaskCompletion: Sendable, Hashable, Codable {
    /// The task that was done.
    public var taskID: Int64?
    /// The occurrence that was due when the task was done, if it had one.
    public var dueDate: Date?
    /// When it was done.
    public var completedAt: Date
    /// The home or device that recorded it (its `device-name` setting), when known.
    public var device: String?

    // Acronym properties get explicit keys spelled the way a snake_case round trip spells them
    // (`feed_id` ↔ `feedId`), so `JSONCoding`'s coders read back exactly what they wrote.
    private enum CodingKeys: String, CodingKey {
        case taskID = "taskId", dueDate, completedAt, device
    }

    public init(taskID: Int64?, dueDate: Date?, completedAt: Date, device: String? = nil) {
        self.device = device
        self.taskID = taskID
        self.dueDate = dueDate
        self.completedAt = completedAt
    }
}

extension HouseholdTask {
    /// The due day as `YYYY-MM-DD` (what `task list --json` shows as `due`), for tasks written
    /// by Feed's `TaskService`, which stores due days as 00:00 UTC; `nil` for an undated task.
    public var dueDay: String? { dueDate.map(Self.day) }

    /// A due day (00:00 UTC of it) as `YYYY-MM-DD`.
    public static func day(_ dueDate: Date) -> String {
        let parts = isoCalendar.dateComponents([.year, .month, .day], from: dueDate)
        let year = parts.year ?? 0
        let month = parts.month ?? 0
        let day = parts.day ?? 0
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    private static let isoCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return calendar
    }()

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
