import Foundation
import Models
import Storage
import Store
import Testing

@testable import Chores

@Suite("Task undo")
struct TaskUndoServiceTests {
    @Test("undoing an add removes the task; then there is nothing to undo")
    func undoAdd() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        let id = try #require(try await service.add(name: "Bins").id)
        let undone = try await service.undo()
        #expect(undone == UndoneTaskChange(kind: .add, taskID: id, task: nil))
        await #expect(throws: TaskError.notFound(id: id)) { try await service.task(id: id) }
        await #expect(throws: TaskError.nothingToUndo) { try await service.undo() }
    }

    @Test("undoing an edit restores the exact previous values")
    func undoEdit() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        let before = try await service.add(name: "Bins", note: "blue", frequency: try .every(1, .week))
        let id = try #require(before.id)
        clock.set(noon.addingTimeInterval(60))
        _ = try await service.edit(id: id, name: "Recycling", note: .clear, due: .set(noon), frequency: .clear)
        #expect(try await service.undo().kind == .edit)
        #expect(try await service.task(id: id) == before)
    }

    @Test("undoing a completion restores the due date and done flag and deletes the completion")
    func undoComplete() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        let due = try dateArgument("-10d", now: noon, calendar: calendar("UTC"))
        let weekly = try #require(try await service.add(name: "Bins", due: due, frequency: try .every(1, .week)).id)
        let once = try #require(try await service.add(name: "Plumber").id)
        _ = try await service.complete(id: weekly)
        let weeklyBefore = try await service.task(id: weekly)
        let onceBefore = try await service.task(id: once)
        clock.set(noon.addingTimeInterval(7 * 86_400))
        _ = try await service.complete(id: weekly)
        _ = try await service.complete(id: once)
        #expect(try await service.undo() == UndoneTaskChange(kind: .complete, taskID: once, task: onceBefore))
        #expect(try await service.undo().kind == .complete)
        #expect(try await service.task(id: weekly) == weeklyBefore)
        #expect(try await service.task(id: once) == onceBefore)
        #expect(try await service.completions(id: weekly).map(\.completedAt) == [noon])
        #expect(try await service.completions(id: once).isEmpty)
    }

    @Test("undoing a removal restores the task with its id and its completions")
    func undoRemove() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        let id = try #require(try await service.add(name: "Bins", frequency: try .every(1, .day)).id)
        _ = try await service.complete(id: id)
        let before = try await service.task(id: id)
        let completions = try await service.completions(id: id)
        try await service.remove(id: id)
        #expect(try await service.undo().kind == .remove)
        #expect(try await service.task(id: id) == before)
        #expect(try await service.completions(id: id) == completions)
        #expect(completions.count == 1)
    }

    @Test("the history survives a restart on the same file")
    func acrossReopen() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let id = try #require(try await store.service(clock).add(name: "Bins", frequency: try .every(1, .week)).id)
        let due = try await store.service(clock).task(id: id).dueDate
        _ = try await store.service(clock).complete(id: id)

        let restarted = TaskService(
            store: LocalStore(database: try store.reopen()), now: clock.closure, calendar: calendar("UTC"))
        #expect(try await restarted.undo().kind == .complete)
        #expect(try await restarted.task(id: id).dueDate == due)
        #expect(try await restarted.completions(id: id).isEmpty)
        #expect(try await restarted.undo().kind == .add)
        await #expect(throws: TaskError.nothingToUndo) { try await restarted.undo() }
    }

    @Test("the history is bounded: only the newest changes can be undone")
    func bounded() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = TaskService(
            store: LocalStore(database: store.database), now: { noon }, calendar: calendar("UTC"), undoLimit: 2)
        for name in ["One", "Two", "Three"] { _ = try await service.add(name: name) }
        try await service.undo()
        try await service.undo()
        await #expect(throws: TaskError.nothingToUndo) { try await service.undo() }
        #expect(try await service.list().map(\.name) == ["One"])
    }
}
