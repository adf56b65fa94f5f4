public import Foundation
public import Models
package import Storage
public import Store

/// Which tasks `TaskService.list(_:)` returns. "Today" is the current day in the service's
/// time zone.
public enum TaskListFilter: String, Sendable, Hashable, CaseIterable {
    /// Open tasks by next due date then name, undated last (the default).
    case open
    /// Open tasks due before today.
    case overdue
    /// Open tasks due today.
    case dueToday
    /// Open tasks due in the next 7 days after today (tomorrow through today + 7).
    case upcoming
    /// Done one-off tasks, most recently done first.
    case done
    /// Every task: open ones as `open`, then done ones.
    case all
}

/// A change to one field in `TaskService.edit(id:name:note:due:frequency:)`.
public enum FieldChange<Value: Sendable & Hashable>: Sendable, Hashable {
    /// Leave the field as it is.
    case keep
    /// Set the field to a value.
    case set(Value)
    /// Empty the field (no note, no due date, no frequency: a one-off task).
    case clear
}

/// Household tasks: add, edit, complete, remove, list and undo, with the rules of each.
///
/// Every change is one transaction on the database's writer, and its result (the saved task or
/// a `TaskError` naming the field and rule) reaches the caller once it has committed. Every
/// change also records how to undo it, in the same transaction; `undo()` takes back the last
/// change made by any writer of the database, also after a restart.
///
/// Due dates are days: the service stores the day an instant falls on in `calendar`'s time zone
/// (see `HouseholdTask.dueDay` for its `YYYY-MM-DD` form). A recurring task without a due date
/// is due today.
public struct TaskService: TaskProviding {
    let repository: TaskRepository
    private let store: LocalStore
    private let now: @Sendable () -> Date
    let days: CivilDays
    private let source: ChangeSource
    /// The name of this home or device, recorded with each completion made here.
    private let device: String?

    /// - Parameters:
    ///   - store: where tasks live.
    ///   - calendar: the user's calendar; its `timeZone` decides what "today" is.
    ///   - undoLimit: how many changes the stored undo history keeps.
    ///   - now: the current time (tests pass a clock they control).
    ///   - device: the name of this home or device, recorded with each completion made here.
    public init(
        store: LocalStore, now: @escaping @Sendable () -> Date = { Date() }, calendar: Calendar = .current,
        undoLimit: Int = 100, device: String? = nil
    ) {
        self.init(store: store, now: now, calendar: calendar, source: .user, undoLimit: undoLimit, device: device)
    }

    /// Creates the service whose changes carry `source` in the store's change sets.
    package init(
        store: LocalStore, now: @escaping @Sendable () -> Date, calendar: Calendar, source: ChangeSource,
        undoLimit: Int, device: String? = nil
    ) {
        self.device = device
        self.store = store
        repository = store.tasks(undoLimit: undoLimit)
        self.now = now
        days = CivilDays(calendar: calendar)
        self.source = source
    }

    /// Adds a task and returns it as saved, with its id.
    ///
    /// - Parameters:
    ///   - name: what to do; surrounding spaces are trimmed and it must not be empty.
    ///   - note: free text; a blank note is none.
    ///   - due: any instant of the due day (a `DateArgument`); defaults to today when `frequency`
    ///     is given.
    ///   - frequency: how often it comes back (see `Frequency.every(_:_:)`); `nil` for once.
    ///   - articleID: the article a "read later" task links to.
    ///   - details: a due time, priority, list, parent chore and reminders (`.set` ones apply).
    /// - Throws: `TaskError.invalid` naming the field (`name: must not be empty`).
    public func add(
        name: String, note: String? = nil, due: Date? = nil, frequency: Frequency? = nil, articleID: Int64? = nil,
        details: TaskDetailChanges = TaskDetailChanges()
    ) async throws(TaskError) -> HouseholdTask {
        let stamp = now()
        let name = try TaskValidation.name(name)
        let note = try TaskValidation.note(note)
        if let frequency { try TaskValidation.check(count: frequency.count, unit: frequency.unit) }
        var dueDay = try due.map { date throws(TaskError) in try day(of: date) }
        if frequency != nil, dueDay == nil { dueDay = try day(of: stamp) }
        var task = HouseholdTask(
            name: name, note: note, dueDate: dueDay, frequency: frequency,
            anchorDate: frequency == nil ? nil : dueDay, articleID: articleID,
            createdAt: stamp)
        try await apply(details, to: &task)
        do {
            return try await repository.save(task, source: source, undoable: true)
        } catch {
            throw TaskError(error)
        }
    }

    /// Changes some fields of a task and returns it as saved. A task that becomes recurring
    /// becomes open again, and is due today when it has no due date. A recurring task's due
    /// date is its next occurrence, so it cannot be removed while the task recurs: clearing it
    /// is refused unless the same edit makes the task a one-off.
    ///
    /// - Throws: `TaskError.invalid` naming the field, `.notFound` for an unknown id.
    public func edit(
        id: Int64, name: String? = nil, note: FieldChange<String> = .keep, due: FieldChange<Date> = .keep,
        frequency: FieldChange<Frequency> = .keep, details: TaskDetailChanges = TaskDetailChanges()
    ) async throws(TaskError) -> HouseholdTask {
        guard name != nil || note != .keep || due != .keep || frequency != .keep || !details.isEmpty else {
            throw .invalid(
                field: "edit",
                rule: "nothing to change (give a name, note, due date, frequency, time, priority, list, parent "
                    + "or reminder)")
        }
        let stamp = now()
        let today = try day(of: stamp)
        let newName = try name.map { name throws(TaskError) in try TaskValidation.name(name) }
        let checkedNote: FieldChange<String>
        if case .set(let text) = note {
            checkedNote = try TaskValidation.note(text).map { .set($0) } ?? .clear
        } else {
            checkedNote = note
        }
        if case .set(let frequency) = frequency {
            try TaskValidation.check(count: frequency.count, unit: frequency.unit)
        }
        let newDue: FieldChange<Date>
        if case .set(let date) = due { newDue = .set(try day(of: date)) } else { newDue = due }
        if newDue == .clear {
            let recurs: Bool
            switch frequency {
            case .set: recurs = true
            case .clear: recurs = false
            case .keep: recurs = try await task(id: id).frequency != nil
            }
            if recurs {
                throw .invalid(
                    field: "due",
                    rule: "a recurring chore's due date is its next occurrence and cannot be removed; "
                        + "make it a one-off first (--once), or give another date")
            }
        }
        // The details are checked against the task as it is now (a parent must not be itself or
        // one of its own steps; a reminder needs a due date).
        var checked = try await task(id: id)
        Self.apply(newDue, to: &checked.dueDate) { $0 }
        try await apply(details, to: &checked)
        let detailed = checked
        let edited = try await write(id: id) { current in
            var task = current
            task.dueTime = detailed.dueTime
            task.timeZone = detailed.timeZone
            task.priority = detailed.priority
            task.list = detailed.list
            task.parentID = detailed.parentID
            task.reminders = detailed.reminders
            if let newName { task.name = newName }
            Self.apply(checkedNote, to: &task.note) { $0 }
            Self.apply(newDue, to: &task.dueDate) { $0 }
            Self.apply(frequency, to: &task.frequency) { $0 }
            if task.frequency != nil {
                // A recurring chore cancelled on another device stays done through other edits.
                if frequency != .keep { task.isDone = false }
                if task.dueDate == nil { task.dueDate = today }
            }
            // A new due date or frequency starts a new rhythm from the due date.
            if newDue != .keep || frequency != .keep { task.anchorDate = task.frequency == nil ? nil : task.dueDate }
            task.modifiedAt = stamp
            return (task, nil)
        }
        guard let edited else { throw .notFound(id: id) }
        return edited
    }

    /// Marks a task done and returns it as saved. A recurring task records the completion (when,
    /// and which due date it satisfied) and moves its due date forward by its frequency from the
    /// due date to the first occurrence after today, skipping missed ones; a one-off task
    /// becomes done.
    ///
    /// - Throws: `TaskError.notFound`, `.alreadyDone` for a done one-off task, `.invalid` when
    ///   the next occurrence would fall after the year 9999.
    public func complete(id: Int64) async throws(TaskError) -> HouseholdTask {
        try await complete(id: id, device: device)
    }

    /// Marks a task done as `complete(id:)` does, recording `device` as the home that did it.
    public func complete(id: Int64, device: String?) async throws(TaskError) -> HouseholdTask {
        let stamp = now()
        let today = try day(of: stamp)
        let utc = days.utc
        let current = try await task(id: id)
        if current.isRecurring, let next = current.completed(at: today, calendar: utc).task.dueDate,
            next.timeIntervalSince1970 > Self.dueDays.upperBound
        {
            throw .invalid(field: "due", rule: "the next occurrence would fall after the year 9999")
        }
        let done = try await write(id: id) { current in
            guard !current.isDone else { return nil }
            // Done "at" today's stored day, so occurrences up to today (in the user's zone) are skipped.
            var (task, completion) = current.completed(at: today, calendar: utc)
            task.modifiedAt = stamp
            completion.completedAt = stamp
            completion.device = device
            return (task, completion)
        }
        guard let done else { throw .alreadyDone(id: id) }
        return done
    }

    /// Removes a task and its completions (`undo()` brings both back).
    ///
    /// - Throws: `TaskError.notFound`.
    public func remove(id: Int64) async throws(TaskError) {
        do {
            try await repository.delete(id: id, source: source, undoable: true)
        } catch {
            throw TaskError(error)
        }
    }

    /// Takes back the last change (add, edit, complete or remove), restoring exactly the state
    /// before it, including completion records, and returns what was undone.
    ///
    /// - Throws: `TaskError.nothingToUndo` when no change is recorded.
    @discardableResult
    public func undo() async throws(TaskError) -> UndoneTaskChange {
        let undone: UndoneTaskChange?
        do {
            undone = try await repository.undo(source: source)
        } catch {
            throw TaskError(error)
        }
        guard let undone else { throw .nothingToUndo }
        return undone
    }

    /// The tasks a filter selects, in its order.
    public func list(_ filter: TaskListFilter = .open) async throws(TaskError) -> [HouseholdTask] {
        let today = try day(of: now())
        let query: TaskFilter =
            switch filter {
            case .open: .open
            case .overdue: .dueBefore(today)
            case .dueToday: .dueBetween(today, days.day(1, after: today))
            case .upcoming: .dueBetween(days.day(1, after: today), days.day(8, after: today))
            case .done: .done
            case .all: .all
            }
        do {
            return try await repository.tasks(query)
        } catch {
            throw TaskError(error)
        }
    }

    /// The task with `id`.
    ///
    /// - Throws: `TaskError.notFound`.
    public func task(id: Int64) async throws(TaskError) -> HouseholdTask {
        let task: HouseholdTask?
        do {
            task = try await repository.task(id: id)
        } catch {
            throw TaskError(error)
        }
        guard let task else { throw .notFound(id: id) }
        return task
    }

    /// The recorded completions of a task, oldest first.
    public func completions(id: Int64) async throws(TaskError) -> [TaskCompletion] {
        do {
            return try await repository.completions(taskID: id)
        } catch {
            throw TaskError(error)
        }
    }

    /// The ids of tasks each committed transaction changes, by any writer of the store.
    public func changes() -> AsyncStream<ChangedIDs> {
        // Subscribed now, before the caller's first await, so no commit slips between.
        store.changes(of: .task).compactMapped { ChangedIDs($0) }
    }

    /// The stored due day of today (00:00 UTC of the current day in the service's time zone).
    public func today() throws(TaskError) -> Date { try day(of: now()) }

    /// The day `date` falls on, as stored; years 1583 through 9999.
    private func day(of date: Date) throws(TaskError) -> Date {
        guard let day = days.day(containing: date), Self.dueDays.contains(day.timeIntervalSince1970) else {
            throw .invalid(field: "due", rule: "must be a day in the years 1583 to 9999")
        }
        return day
    }

    /// The stored due days (00:00 UTC) a task may have: 1583-01-01 to 9999-12-31. Days are
    /// reckoned in Foundation's calendar, which is Julian before October 1582, and shown in the
    /// proleptic Gregorian one of ISO 8601: before 1583 the two name one day differently (a
    /// day typed as 0001-01-01 was listed as 0001-01-03), and a year before 1 (`--due -3000y`)
    /// read as a year of the era before Christ. ISO 8601 itself leaves years before 1583 to
    /// agreement.
    static let dueDays: ClosedRange<Double> =
        Double(CivilDate.daysSinceEpoch(year: 1583, month: 1, day: 1)) * 86_400...Double(
            CivilDate.daysSinceEpoch(year: 9999, month: 12, day: 31)) * 86_400

    private func write(
        id: Int64, _ change: @escaping @Sendable (HouseholdTask) -> (task: HouseholdTask, completion: TaskCompletion?)?
    ) async throws(TaskError) -> HouseholdTask? {
        do {
            return try await repository.update(id: id, source: source, undoable: true, change)
        } catch {
            throw TaskError(error)
        }
    }

    static func apply<Value>(
        _ change: FieldChange<Value>, to field: inout Value?, _ transform: (Value) -> Value?
    ) {
        switch change {
        case .keep: break
        case .set(let value): field = transform(value)
        case .clear: field = nil
        }
    }
}
