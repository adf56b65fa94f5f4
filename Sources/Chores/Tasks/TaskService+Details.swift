import Foundation
public import Models
internal import Storage

/// Lists, history, and the details of a chore beyond its name, note, day and frequency.
extension TaskService {
    /// The tasks a filter selects on one list (`nil` for the default list), in the filter's order.
    public func list(_ filter: TaskListFilter, on list: String?) async throws(TaskError) -> [HouseholdTask] {
        try Self.tasks(try await self.list(filter), on: list)
    }

    /// Those of `tasks` on the list named `list` (any case; `nil` for the default list).
    ///
    /// - Throws: `TaskError.invalid` naming `list` for a name no list can have.
    public static func tasks(_ tasks: [HouseholdTask], on list: String?) throws(TaskError) -> [HouseholdTask] {
        let name = try list.map { name throws(TaskError) in try TaskValidation.list(name).lowercased() }
        return tasks.filter { $0.list?.lowercased() == name }
    }

    /// The lists with their open and total counts: the default list first, then by name.
    public func lists() async throws(TaskError) -> [TaskListSummary] {
        do {
            return try await repository.lists().map { TaskListSummary(name: $0.name, open: $0.open, total: $0.total) }
        } catch {
            throw TaskError(error)
        }
    }

    /// Completions of every chore, newest first (at most `limit`), each with its chore.
    public func history(limit: Int = 100) async throws(TaskError) -> [TaskHistoryEntry] {
        do {
            let completions = try await repository.recentCompletions(limit: limit)
            var tasks: [Int64: HouseholdTask] = [:]
            for id in Set(completions.compactMap(\.taskID)) { tasks[id] = try await repository.task(id: id) }
            return completions.compactMap { completion in
                completion.taskID.flatMap { tasks[$0] }.map { TaskHistoryEntry(task: $0, completion: completion) }
            }
        } catch {
            throw TaskError(error)
        }
    }

    /// The newest completion of each chore that has one, by chore id.
    public func lastCompletions() async throws(TaskError) -> [Int64: TaskCompletion] {
        do {
            return try await repository.lastCompletions()
        } catch {
            throw TaskError(error)
        }
    }

    /// `details` applied to `task` (as it will be saved, its due day already set), checked: a
    /// time or a reminder needs a due day; a parent must exist and be neither the task nor one
    /// of its steps. A time records the user's time zone; a chore without a time has none.
    func apply(_ details: TaskDetailChanges, to task: inout HouseholdTask) async throws(TaskError) {
        Self.apply(details.dueTime, to: &task.dueTime) { $0 }
        Self.apply(details.priority, to: &task.priority) { $0 }
        if case .set(let name) = details.list {
            // A list is named as it was first written: `groceries` joins `Groceries`.
            let checked = try TaskValidation.list(name)
            let known: [TaskListSummary]
            do {
                known = try await repository.lists().map {
                    TaskListSummary(name: $0.name, open: $0.open, total: $0.total)
                }
            } catch {
                throw TaskError(error)
            }
            task.list = known.compactMap(\.name).first { $0.lowercased() == checked.lowercased() } ?? checked
        } else if details.list == .clear {
            task.list = nil
        }
        switch details.reminders {
        case .keep: break
        case .set(let minutes): task.reminders = try TaskValidation.reminders(minutes)
        case .clear: task.reminders = []
        }
        if task.dueDate == nil {
            if details.dueTime != .keep, task.dueTime != nil {
                throw .invalid(field: "due", rule: "a time needs a day: give one, like --due \"friday 18:00\"")
            }
            if !task.reminders.isEmpty {
                throw .invalid(field: "remind", rule: "a reminder comes before the due time: give --due as well")
            }
            task.dueTime = nil
        }
        task.timeZone = task.dueTime == nil ? nil : (task.timeZone ?? days.calendar.timeZone.identifier)
        if details.dueTime != .keep, task.dueTime != nil { task.timeZone = days.calendar.timeZone.identifier }
        switch details.parentID {
        case .keep: break
        case .clear: task.parentID = nil
        case .set(let parentID):
            if parentID == task.id { throw .invalid(field: "under", rule: "a chore cannot be a step of itself") }
            // Up the parent's own parents: reaching this chore would make a loop.
            var ancestor: Int64? = parentID
            var seen: Set<Int64> = []
            while let current = ancestor, seen.insert(current).inserted {
                let found: HouseholdTask?
                do {
                    found = try await repository.task(id: current)
                } catch {
                    throw TaskError(error)
                }
                guard let found else { throw .invalid(field: "under", rule: "there is no task #\(current)") }
                if let id = task.id, found.parentID == id {
                    throw .invalid(field: "under", rule: "task #\(parentID) is a step of this chore already")
                }
                ancestor = found.parentID
            }
            task.parentID = parentID
        }
    }
}
