/// A kind of task change that can be undone.
public enum TaskChangeKind: String, Sendable, Hashable, CaseIterable {
    /// A task was added; undoing removes it.
    case add
    /// A task's fields changed; undoing restores the previous values.
    case edit
    /// A task was done; undoing restores its due date and done flag and deletes the completion.
    case complete
    /// A task was removed; undoing brings it back with its id and completions.
    case remove
}

/// What undoing the last task change restored.
public struct UndoneTaskChange: Sendable, Hashable {
    /// The kind of change that was undone.
    public let kind: TaskChangeKind
    /// The task it concerned.
    public let taskID: Int64
    /// The task as restored; `nil` when an add was undone (the task is gone again).
    public let task: HouseholdTask?

    /// Creates a description of an undone change.
    public init(kind: TaskChangeKind, taskID: Int64, task: HouseholdTask?) {
        self.kind = kind
        self.taskID = taskID
        self.task = task
    }
}
