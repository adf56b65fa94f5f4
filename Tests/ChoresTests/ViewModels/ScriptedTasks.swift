import Foundation
import Models
import Synchronization
import Testing

@testable import Chores

/// A `TaskProviding` in memory: the tasks and "today" the test sets, changes it announces.
final class ScriptedTasks: TaskProviding {
    let tasks = Mutex<[HouseholdTask]>([])
    let todayValue: Date
    let listCalls = Mutex<[TaskListFilter]>([])
    private let continuation: AsyncStream<ChangedIDs>.Continuation
    private let stream: AsyncStream<ChangedIDs>

    init(today: Date) {
        todayValue = today
        (stream, continuation) = AsyncStream.makeStream(of: ChangedIDs.self)
    }

    func announce(_ changes: ChangedIDs) { continuation.yield(changes) }

    func list(_ filter: TaskListFilter) async throws(TaskError) -> [HouseholdTask] {
        listCalls.withLock { $0.append(filter) }
        guard filter == .open || filter == .all else {
            Issue.record("list(\(filter)) was not scripted")
            throw TaskError.nothingToUndo
        }
        return tasks.withLock { $0 }.filter { filter == .all || !$0.isDone }
    }

    func today() throws(TaskError) -> Date { todayValue }

    func changes() -> AsyncStream<ChangedIDs> { stream }
}
