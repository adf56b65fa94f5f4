import Foundation
import Models
import Synchronization
import Testing

@testable import Chores

/// The task list view model over an in-memory provider: no SQLite.
@Suite("Task list view model in memory", .timeLimit(.minutes(10)))
struct TaskListViewModelInMemoryTests {
    @Test("the task list sections by the provider's today and re-reads when it announces a change")
    func taskList() async throws {
        let today = Date(timeIntervalSince1970: 1_795_305_600)  // 00:00 UTC, as stored days are
        let day: TimeInterval = 86_400
        let provider = ScriptedTasks(today: today)
        provider.tasks.withLock {
            $0 = [
                HouseholdTask(id: 1, name: "Late", dueDate: today - day, createdAt: today),
                HouseholdTask(id: 2, name: "Now", dueDate: today, createdAt: today),
                HouseholdTask(id: 3, name: "Soon", dueDate: today + 3 * day, createdAt: today),
                HouseholdTask(id: 4, name: "Later", dueDate: today + 8 * day, createdAt: today),
                HouseholdTask(id: 5, name: "Someday", createdAt: today),
            ]
        }
        let model = TaskListViewModel(service: provider)
        var states = model.states().makeAsyncIterator()
        _ = await states.next()  // idle
        await model.load()
        _ = await states.next()  // loading
        let list = try #require(await states.next()?.content)
        #expect(list.snapshot.sectionIdentifiers == [.overdue, .today, .upcoming, .later, .someday])
        #expect(list.orderedTasks.map(\.name) == ["Late", "Now", "Soon", "Later", "Someday"])

        _ = provider.tasks.withLock { $0.removeFirst() }
        provider.announce(ChangedIDs(deleted: [1]))
        let after = try #require(await states.next()?.content)
        #expect(after.snapshot.sectionIdentifiers == [.today, .upcoming, .later, .someday])
        #expect(provider.listCalls.withLock { $0 } == [.open, .open])
    }
}
