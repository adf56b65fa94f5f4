import Foundation
import Models
import Storage
import Testing

@testable import Chores

@Suite("Task list view model", .timeLimit(.minutes(10)))
struct TaskListViewModelTests {
    func isLoaded(_ state: ViewState<TaskList>) -> Bool {
        if case .loaded = state { true } else { false }
    }

    @Test("a load publishes loading, then loaded with the stored tasks; never loaded before the read")
    func loadStates() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        let bins = try #require(try await service.add(name: "Bins", due: noon, frequency: try .every(1, .week)).id)
        let someday = try #require(try await service.add(name: "Someday").id)
        let model = TaskListViewModel(service: service)
        var states = model.states().makeAsyncIterator()
        #expect(await states.next() == .idle)
        await model.load()
        #expect(await states.next() == .loading(previous: nil))
        let list = try #require(await states.next()?.content)
        #expect(model.state == .loaded(list))
        #expect(list.snapshot.sectionIdentifiers == [.today, .someday])
        #expect(list.snapshot.itemIdentifiers == [bins, someday])
        #expect(list.orderedTasks.map(\.name) == ["Bins", "Someday"])
        #expect(list.filter == .open)
    }

    @Test("tasks are grouped into overdue, today, upcoming, later, someday and done")
    func sections() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        let utc = calendar("UTC")
        var expected: [TaskSection: [Int64]] = [:]
        for (section, offset) in [(TaskSection.overdue, "-1d"), (.today, "+0d"), (.upcoming, "+7d"), (.later, "+8d")] {
            let due = try dateArgument(offset, now: noon, calendar: utc)
            expected[section] = [try #require(try await service.add(name: "\(section)", due: due).id)]
        }
        expected[.someday] = [try #require(try await service.add(name: "someday").id)]
        let done = try #require(try await service.add(name: "done").id)
        _ = try await service.complete(id: done)
        expected[.done] = [done]
        let model = TaskListViewModel(service: service)
        await model.load(.all)
        let list = try #require(model.state.content)
        #expect(list.snapshot.sectionIdentifiers == TaskSection.allCases)
        for section in TaskSection.allCases {
            #expect(list.snapshot.itemIdentifiers(inSection: section) == expected[section])
        }
        await model.load(.done)
        #expect(model.state.content?.snapshot.itemIdentifiers == [done])
    }

    @Test("another writer's completion is a reload, its removal a delete, its add an insert")
    func liveUpdatesFromAnotherWriter() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let mine = store.service(clock)
        let other = store.service(clock, source: ChangeSource("other"))
        let bins = try #require(try await mine.add(name: "Bins", due: noon, frequency: try .every(1, .week)).id)
        let plants = try #require(try await mine.add(name: "Plants", due: noon, frequency: try .every(3, .day)).id)
        let model = TaskListViewModel(service: mine)
        await model.load()
        let first = try #require(model.state.content)
        var states = model.states().makeAsyncIterator()
        _ = await states.next()  // the current state

        _ = try await other.complete(id: bins)
        let afterComplete = try #require(await states.next(where: isLoaded)?.content)
        let completed = afterComplete.snapshot.difference(from: first.snapshot)
        #expect(completed.reloaded == [bins])
        #expect(completed.inserted.isEmpty && completed.deleted.isEmpty)
        #expect(afterComplete.tasks[bins]?.dueDay == "2026-11-29")
        #expect(afterComplete.snapshot.sectionIdentifier(containingItem: bins) == .upcoming)

        try await other.remove(id: plants)
        let afterRemove = try #require(await states.next(where: isLoaded)?.content)
        let removed = afterRemove.snapshot.difference(from: afterComplete.snapshot)
        #expect(removed.deleted == [plants])
        #expect(removed.reloaded.isEmpty)

        let added = try #require(try await other.add(name: "Windows").id)
        let afterAdd = try #require(await states.next(where: isLoaded)?.content)
        #expect(afterAdd.snapshot.difference(from: afterRemove.snapshot).inserted == [added])
        #expect(afterAdd.snapshot.itemIdentifiers == [bins, added])
    }

    @Test("an undo by another writer updates the list too")
    func liveUndo() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let other = store.service(clock, source: ChangeSource("other"))
        let model = TaskListViewModel(service: store.service(clock))
        let id = try #require(try await other.add(name: "Bins").id)
        await model.load()
        var states = model.states().makeAsyncIterator()
        _ = await states.next()
        try await other.undo()
        let list = try #require(await states.next(where: isLoaded)?.content)
        #expect(list.snapshot.itemIdentifiers.isEmpty)
        #expect(model.state.content?.tasks[id] == nil)
    }

    @Test("a failed read keeps the last good list as stale, with the reason")
    func failureKeepsStaleList() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        _ = try await service.add(name: "Bins")
        let model = TaskListViewModel(service: service)
        await model.load()
        let good = try #require(model.state.content)
        clock.set(instant("10000-01-02", in: "UTC"))  // today is beyond the calendar's years
        await model.load(.overdue)
        #expect(model.state == .failed(message: "due: must be a day in the years 1583 to 9999", stale: good))
    }
}
