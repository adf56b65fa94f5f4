import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("Task undo history")
struct TaskUndoTests {
    let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    func task(_ name: String, due: Double? = 0, every frequency: Frequency? = nil) -> HouseholdTask {
        HouseholdTask(
            name: name, dueDate: due.map { now.addingTimeInterval($0 * 86_400) }, frequency: frequency, createdAt: now)
    }

    /// The change a completion at `now` makes, as the update closure receives it.
    func completing(_ calendar: Calendar)
        -> @Sendable (HouseholdTask) -> (task: HouseholdTask, completion: TaskCompletion?)?
    {
        { current in
            let (next, completion) = current.completed(at: now, calendar: calendar)
            return (next, completion)
        }
    }

    @Test("the undo table is migration v2-task-undo, registered after v1")
    func migrationOrder() {
        let migrations = AppDatabase.migrator.migrations
        #expect(migrations.first == "v1")
        #expect((migrations.firstIndex(of: "v2-task-undo") ?? -1) > 0)
    }

    @Test("a v1 database gains the undo history and keeps its tasks")
    func upgradesV1() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        do {
            let v1 = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(v1, upTo: "v1")
            try await v1.write { db in
                try db.execute(sql: "INSERT INTO task (name, createdAt, modifiedAt) VALUES ('Bins', 0, 0)")
            }
        }
        let tasks = TaskRepository(database: try AppDatabase(path: path))
        #expect(try await tasks.tasks(.all).map(\.name) == ["Bins"])
        #expect(try await tasks.undoableChangeCount() == 0)
        #expect(try await tasks.undo() == nil)
    }

    @Test("undoing an add removes the task")
    func undoAdd() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let saved = try await tasks.save(task("Bins"), undoable: true)
        let id = try #require(saved.id)
        #expect(try await tasks.undo() == UndoneTaskChange(kind: .add, taskID: id, task: nil))
        #expect(try await tasks.task(id: id) == nil)
        #expect(try await tasks.undo() == nil)
    }

    @Test("undoing an edit restores every previous value")
    func undoEdit() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        var original = task("Bins", every: try Frequency(count: 1, unit: .week))
        original.note = "blue bin"
        let saved = try await tasks.save(original)
        var edited = saved
        edited.name = "Recycling"
        edited.note = nil
        edited.frequency = nil
        edited.dueDate = nil
        edited.modifiedAt = now.addingTimeInterval(60)
        _ = try await tasks.save(edited, undoable: true)
        let undone = try await tasks.undo()
        #expect(undone?.kind == .edit)
        #expect(undone?.task == saved)
        #expect(try await tasks.task(id: try #require(saved.id)) == saved)
    }

    @Test("undoing a completion restores the due date and deletes the completion record")
    func undoComplete() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let saved = try await tasks.save(task("Bins", due: -1, every: try Frequency(count: 1, unit: .week)))
        let id = try #require(saved.id)
        let earlier = try #require(try await tasks.update(id: id, completing(utc)))
        let done = try #require(try await tasks.update(id: id, undoable: true, completing(utc)))
        #expect(done.dueDate != earlier.dueDate)
        #expect(try await tasks.completions(taskID: id).count == 2)
        #expect(try await tasks.undo()?.kind == .complete)
        #expect(try await tasks.task(id: id) == earlier)
        #expect(try await tasks.completions(taskID: id).count == 1)
    }

    @Test("undoing a removal brings the task back with its id and completions")
    func undoRemove() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let saved = try await tasks.save(task("Bins", every: try Frequency(count: 1, unit: .day)))
        let id = try #require(saved.id)
        _ = try await tasks.update(id: id, completing(utc))
        let completed = try #require(try await tasks.task(id: id))
        let completions = try await tasks.completions(taskID: id)
        try await tasks.delete(id: id, undoable: true)
        #expect(try await tasks.task(id: id) == nil)
        #expect(try await tasks.undo() == UndoneTaskChange(kind: .remove, taskID: id, task: completed))
        #expect(try await tasks.task(id: id) == completed)
        #expect(try await tasks.completions(taskID: id) == completions)
        #expect(completions.count == 1)
    }

    @Test(
        "undoing a removal makes its steps its steps again, but one given another parent meanwhile (by a sync) or gone"
    )
    func undoRemoveRelinksSteps() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let parent = try #require(try await tasks.save(task("Party")).id)
        let other = try #require(try await tasks.save(task("Picnic")).id)
        var ids: [Int64] = []
        for name in ["Cake", "Candles", "Balloons"] {
            var step = task(name)
            step.parentID = parent
            ids.append(try #require(try await tasks.save(step).id))
        }
        try await tasks.delete(id: parent, undoable: true)
        #expect(try await tasks.tasks(.all).allSatisfy { $0.parentID == nil })
        // Meanwhile, not undoably: one step under another chore, one gone.
        _ = try await tasks.update(id: ids[1]) { current in
            var moved = current
            moved.parentID = other
            return (moved, nil)
        }
        try await tasks.delete(id: ids[2])
        _ = try await tasks.undo()
        let parents = Dictionary(uniqueKeysWithValues: try await tasks.tasks(.all).map { ($0.name, $0.parentID) })
        #expect(parents == ["Party": nil, "Picnic": nil, "Cake": parent, "Candles": other], "\(parents)")
    }

    @Test("changes made without undoable are not recorded; undo takes changes newest first")
    func newestFirst() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let first = try await tasks.save(task("First"), undoable: true)
        _ = try await tasks.save(task("Not recorded"))
        let second = try await tasks.save(task("Second"), undoable: true)
        #expect(try await tasks.undo()?.taskID == second.id)
        #expect(try await tasks.undo()?.taskID == first.id)
        #expect(try await tasks.undo() == nil)
        #expect(try await tasks.tasks(.all).map(\.name) == ["Not recorded"])
    }

    @Test("the history keeps only the newest changes up to its limit")
    func bounded() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory(), undoLimit: 3)
        var ids: [Int64] = []
        for index in 1...5 { ids.append(try #require(try await tasks.save(task("Task \(index)"), undoable: true).id)) }
        #expect(try await tasks.undoableChangeCount() == 3)
        for id in ids.reversed().prefix(3) { #expect(try await tasks.undo()?.taskID == id) }
        #expect(try await tasks.undo() == nil)
        #expect(try await tasks.tasks(.all).map(\.name) == ["Task 1", "Task 2"])
    }

    @Test("the history survives closing and reopening the file")
    func survivesReopen() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let id: Int64
        do {
            let tasks = TaskRepository(database: try AppDatabase(path: path))
            let saved = try await tasks.save(task("Bins"), undoable: true)
            id = try #require(saved.id)
            try await tasks.delete(id: id, undoable: true)
        }
        let reopened = TaskRepository(database: try AppDatabase(path: path))
        #expect(try await reopened.undo()?.kind == .remove)
        #expect(try await reopened.task(id: id)?.name == "Bins")
        #expect(try await reopened.undo()?.kind == .add)
        #expect(try await reopened.task(id: id) == nil)
    }

    @Test("an update whose change declines writes and records nothing")
    func declinedUpdate() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        let saved = try await tasks.save(task("Bins"))
        #expect(try await tasks.update(id: try #require(saved.id), undoable: true) { _ in nil } == nil)
        #expect(try await tasks.undoableChangeCount() == 0)
        await #expect(throws: StorageError.notFound(entity: "task", id: 99)) {
            try await tasks.update(id: 99) { ($0, nil) }
        }
    }

    @Test("a link to an article that does not exist is refused with the article's id")
    func unknownArticle() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        var readLater = task("Read later")
        readLater.articleID = 7
        await #expect(throws: StorageError.notFound(entity: "article", id: 7)) {
            try await tasks.save(readLater, undoable: true)
        }
        #expect(try await tasks.undoableChangeCount() == 0)
    }

    @Test("undo publishes its changes: an undone add is a delete, an undone removal an insert")
    func undoChangeSets() async throws {
        let database = try AppDatabase.inMemory()
        let tasks = TaskRepository(database: database)
        let id = try #require(try await tasks.save(task("Bins"), undoable: true).id)
        try await tasks.delete(id: id, undoable: true)
        var changes = database.changes(of: .task).makeAsyncIterator()
        _ = try await tasks.undo()
        #expect(await changes.next() == EntityChanges(inserted: [id]))
        _ = try await tasks.undo()
        #expect(await changes.next() == EntityChanges(deleted: [id]))
    }

    @Test("open tasks due the same day are sorted by name, ignoring case")
    func sameDayByName() async throws {
        let tasks = TaskRepository(database: try AppDatabase.inMemory())
        for name in ["water plants", "Bins", "air the rooms"] { _ = try await tasks.save(task(name)) }
        _ = try await tasks.save(task("Someday", due: nil))
        #expect(try await tasks.tasks(.open).map(\.name) == ["air the rooms", "Bins", "water plants", "Someday"])
    }
}
