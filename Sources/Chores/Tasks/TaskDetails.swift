public import Models

/// The details of a chore beyond its name, note, due day and frequency, as `TaskService.add`
/// and `TaskService.edit` take them: each a change (`.keep` leaves it, `.set` sets it,
/// `.clear` removes it; for an add, `.keep` and `.clear` both mean none).
public struct TaskDetailChanges: Sendable, Hashable {
    /// The time of day on the due day (the service records the user's time zone with it).
    public var dueTime: FieldChange<TimeOfDay>
    /// High, medium or low.
    public var priority: FieldChange<TaskPriority>
    /// The list's name; `.clear` moves the chore to the default list.
    public var list: FieldChange<String>
    /// The chore this one is a step of.
    public var parentID: FieldChange<Int64>
    /// Reminders, in minutes before the due time.
    public var reminders: FieldChange<[Int]>

    public init(
        dueTime: FieldChange<TimeOfDay> = .keep, priority: FieldChange<TaskPriority> = .keep,
        list: FieldChange<String> = .keep, parentID: FieldChange<Int64> = .keep,
        reminders: FieldChange<[Int]> = .keep
    ) {
        self.dueTime = dueTime
        self.priority = priority
        self.list = list
        self.parentID = parentID
        self.reminders = reminders
    }

    /// No change at all.
    public var isEmpty: Bool {
        dueTime == .keep && priority == .keep && list == .keep && parentID == .keep && reminders == .keep
    }
}

/// One line of a chore's history: a completion, with the chore it belongs to.
public struct TaskHistoryEntry: Sendable, Hashable {
    /// The chore as it is now.
    public var task: HouseholdTask
    /// When, for which occurrence and by which home.
    public var completion: TaskCompletion
}

/// A list of chores with its counts.
public struct TaskListSummary: Sendable, Hashable {
    /// Its name; `nil` for the default list.
    public var name: String?
    /// Chores not done.
    public var open: Int
    /// All its chores.
    public var total: Int
}
