import Foundation
public import Models

/// The groups a task list shows, in this order; empty groups are left out.
public enum TaskSection: String, Sendable, Hashable, CaseIterable {
    /// Open tasks due before today.
    case overdue
    /// Open tasks due today.
    case today
    /// Open tasks due in the next 7 days.
    case upcoming
    /// Open tasks due later than that.
    case later
    /// Open tasks without a due date.
    case someday
    /// Done one-off tasks.
    case done
}

/// What a task list shows: the snapshot of sections and task ids, and the tasks themselves.
public struct TaskList: Sendable, Hashable {
    /// The filter the list was loaded with.
    public let filter: TaskListFilter
    /// Sections and task ids in display order; ids of tasks changed since the previous list
    /// are marked as reloaded (`snapshot.difference(from: previous.snapshot)`).
    public let snapshot: Snapshot<TaskSection, Int64>
    /// The tasks by id.
    public let tasks: [Int64: HouseholdTask]

    /// The tasks in display order.
    public var orderedTasks: [HouseholdTask] { snapshot.itemIdentifiers.compactMap { tasks[$0] } }
}

/// A list of household tasks with the same state machinery as the article lists: its state is
/// idle, loading, loaded (a `TaskList`) or failed (with the last good list), and every
/// subscriber gets its own stream of states.
///
/// After the first `load(_:)` the list follows the database: whenever any writer (another
/// `TaskService` on the same database included) commits a task change, the list is read again
/// and published; a changed task is a reload in the new snapshot, a removed one a delete.
/// A load publishes `loaded` only after the tasks were read from storage.
public actor TaskListViewModel {
    private let service: any TaskProviding
    private let publisher = StatePublisher<ViewState<TaskList>>(.idle)
    private var filter = TaskListFilter.open
    /// Reads are numbered; a read that finishes after a newer one was published is dropped.
    private var started = 0
    private var published = 0
    private var observation: Task<Void, Never>?

    /// Creates an idle list over `service`.
    public init(service: any TaskProviding) { self.service = service }

    deinit { observation?.cancel() }

    public nonisolated var state: ViewState<TaskList> { publisher.value }

    /// A stream of states for one subscriber, starting with the current one.
    public nonisolated func states() -> AsyncStream<ViewState<TaskList>> { publisher.values() }

    /// Loads the tasks `filter` selects, publishing `loading` (with the list shown so far) and
    /// then `loaded`, or `failed` with the last good list.
    public func load(_ filter: TaskListFilter = .open) async {
        self.filter = filter
        startObserving()
        publisher.send(.loading(previous: publisher.value.content))
        await fetch()
    }

    /// Reads the current filter's tasks again (after midnight, say) without a loading state.
    public func refresh() async { await fetch() }

    /// Subscribes to the database's task changes once, before the first read, so no change
    /// committed after it is missed.
    private func startObserving() {
        guard observation == nil else { return }
        let changes = service.changes()
        observation = Task { [weak self] in
            for await _ in changes {
                guard let self else { return }
                await self.fetch()
            }
        }
    }

    private func fetch() async {
        started += 1
        let current = started
        let filter = self.filter
        let result: Result<([HouseholdTask], Date), TaskError>
        do {
            let tasks = try await service.list(filter)
            result = .success((tasks, try service.today()))
        } catch {
            result = .failure(error)
        }
        guard current > published else { return }
        published = current
        let previous = publisher.value.content
        switch result {
        case .success(let (tasks, today)):
            publisher.send(.loaded(makeList(tasks, filter: filter, today: today, previous: previous)))
        case .failure(let error):
            publisher.send(.failed(message: error.description, stale: previous))
        }
    }

    private func makeList(_ tasks: [HouseholdTask], filter: TaskListFilter, today: Date, previous: TaskList?)
        -> TaskList
    {
        var byID: [Int64: HouseholdTask] = [:]
        var bySection: [TaskSection: [Int64]] = [:]
        for task in tasks {
            guard let id = task.id, byID[id] == nil else { continue }
            byID[id] = task
            bySection[section(of: task, today: today), default: []].append(id)
        }
        var snapshot = Snapshot<TaskSection, Int64>()
        for section in TaskSection.allCases {
            guard let ids = bySection[section] else { continue }
            // Sections are distinct cases and ids were de-duplicated above, so neither throws.
            try? snapshot.appendSections([section])
            try? snapshot.appendItems(ids, toSection: section)
        }
        if let previous, previous.filter == filter {
            let changed = byID.filter { id, task in previous.tasks[id].map { $0 != task } ?? false }
            snapshot.reloadItems(Array(changed.keys))
        }
        return TaskList(filter: filter, snapshot: snapshot, tasks: byID)
    }

    private func section(of task: HouseholdTask, today: Date) -> TaskSection {
        if task.isDone { return .done }
        guard let due = task.dueDate else { return .someday }
        if due < today { return .overdue }
        if due < Self.days.day(1, after: today) { return .today }
        if due < Self.days.day(8, after: today) { return .upcoming }
        return .later
    }

    /// Day arithmetic on stored days (00:00 UTC), whatever the user's time zone.
    private static let days = CivilDays(calendar: Calendar(identifier: .gregorian))
}
