import Foundation
import Models
import Testing

@testable import Storage

@Suite("Chore sync state")
struct ChoreSyncRepositoryTests {
    let chores = URL(string: "https://dav.example.org/alice/chores/")!

    func item(_ name: String, task: Int64?) -> ChoreSyncItem {
        ChoreSyncItem(
            href: "/alice/chores/\(name).ics", uid: "uid-\(name)", taskID: task, etag: "\"\(name)\"",
            icalendar: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    }

    @Test("the account is set, kept when set again, and a sync's token, time and result are recorded")
    func account() async throws {
        let sync = ChoreSyncRepository(database: try AppDatabase.inMemory())
        #expect(try await sync.account() == nil)
        try await sync.setAccount(url: chores, user: "alice")
        try await sync.save([item("a", task: nil)])
        try await sync.recordSync(token: "t1", at: now, result: "sent 1")
        try await sync.setAccount(url: chores, user: "alice")
        #expect(
            try await sync.account()
                == ChoreSyncAccount(url: chores, user: "alice", syncToken: "t1", lastSyncAt: now, lastResult: "sent 1"))
        #expect(try await sync.items().count == 1)
    }

    @Test("another collection or user starts over: the old objects and token are forgotten, the tasks stay")
    func anotherCollection() async throws {
        let database = try AppDatabase.inMemory()
        let sync = ChoreSyncRepository(database: database)
        let tasks = TaskRepository(database: database)
        let task = try await tasks.save(HouseholdTask(name: "Bins", createdAt: now))
        try await sync.setAccount(url: chores, user: "alice")
        try await sync.save([item("a", task: task.id)])
        try await sync.recordSync(token: "t1", at: now, result: "ok")
        try await sync.setAccount(url: chores, user: "bob", previousPath: "/alice/chores/")
        #expect(try await sync.items().isEmpty)
        #expect(try await sync.account() == ChoreSyncAccount(url: chores, user: "bob"))
        #expect(try await tasks.task(id: #require(task.id)) != nil)
        try await sync.removeAccount(path: "/alice/chores/")
        #expect(try await sync.account() == nil)
    }

    @Test(
        "a list's own collection is kept beside the others' (its name in any case), and setting it again elsewhere or removing it forgets its objects alone"
    )
    func listCollections() async throws {
        let sync = ChoreSyncRepository(database: try AppDatabase.inMemory())
        let groceries = URL(string: "https://dav.example.org/alice/groceries/")!
        let errands = URL(string: "https://dav.example.org/alice/errands/")!
        try await sync.setAccount(url: chores, user: "alice")
        try await sync.setAccount(url: groceries, user: "alice", list: "Groceries")
        try await sync.setAccount(url: errands, user: "alice", list: "errands")
        let milk = ChoreSyncItem(
            href: "/alice/groceries/milk.ics", uid: "milk", taskID: nil, etag: "\"1\"", icalendar: "BEGIN:VCALENDAR")
        try await sync.save([item("a", task: nil), milk])
        try await sync.recordSync(list: "groceries", token: "g1", at: now, result: "sent 1")
        #expect(try await sync.accounts().map(\.list) == [nil, "errands", "Groceries"])
        #expect(try await sync.accounts()[2].syncToken == "g1")
        #expect(try await sync.account()?.syncToken == nil)
        // The same collection again (the name in another case) changes nothing.
        try await sync.setAccount(url: groceries, user: "alice", list: "GROCERIES", previousPath: "/alice/groceries/")
        #expect(try await sync.items().count == 2)
        // Elsewhere: its objects and token go; the other collections' stay.
        let moved = URL(string: "https://dav.example.org/alice/food/")!
        try await sync.setAccount(url: moved, user: "alice", list: "groceries", previousPath: "/alice/groceries/")
        #expect(try await sync.items().map(\.href) == ["/alice/chores/a.ics"])
        #expect(try await sync.accounts().map(\.syncToken) == [nil, nil, nil])
        #expect(try await sync.accounts().last?.url == moved)
        try await sync.removeAccount(list: "ERRANDS", path: "/alice/errands/")
        #expect(try await sync.accounts().map(\.list) == [nil, "groceries"])
        #expect(try await sync.items().count == 1)
    }

    @Test("a task deleted here keeps its object, without a task, until the deletion reaches the server")
    func deletedTaskKeepsItsObject() async throws {
        let database = try AppDatabase.inMemory()
        let sync = ChoreSyncRepository(database: database)
        let tasks = TaskRepository(database: database)
        let id = try #require(try await tasks.save(HouseholdTask(name: "Bins", createdAt: now)).id)
        try await sync.setAccount(url: chores, user: "alice")
        try await sync.save([item("a", task: id), item("b", task: nil)])
        try await tasks.delete(id: id)
        #expect(try await sync.items().map(\.taskID) == [nil, nil])
        // Synced: saved again with a new ETag, and the deleted one forgotten.
        var b = item("b", task: nil)
        b.etag = "\"b2\""
        try await sync.save([b], removing: ["/alice/chores/a.ics"])
        #expect(try await sync.items() == [b])
    }

    @Test("an object saved under another href with the same UID replaces the old row")
    func moved() async throws {
        let sync = ChoreSyncRepository(database: try AppDatabase.inMemory())
        try await sync.setAccount(url: chores, user: "alice")
        try await sync.save([item("a", task: nil)])
        var moved = item("a", task: nil)
        moved.href = "/alice/chores/renamed.ics"
        try await sync.save([moved])
        #expect(try await sync.items() == [moved])
    }

    @Test("a received task goes in with its completion and its object in one transaction; its article link resolves")
    func insert() async throws {
        let database = try AppDatabase.inMemory()
        let sync = ChoreSyncRepository(database: database)
        let task = HouseholdTask(
            name: "Plants", dueDate: now, frequency: try Frequency(count: 3, unit: .day), articleID: 999, createdAt: now
        )
        let result = try await sync.apply(
            .insert(
                task, completion: TaskCompletion(taskID: nil, dueDate: nil, completedAt: now),
                item: item("p", task: nil)),
            source: .app)
        guard case .written(let id?) = result else {
            Issue.record("not written: \(result)")
            return
        }
        let state = try await sync.localState()
        // An article that does not exist here is not linked.
        #expect(state.tasks.map(\.task.articleID) == [nil])
        #expect(state.tasks.map(\.completions) == [[now]])
        #expect(state.items.map(\.taskID) == [id])
        #expect(try await sync.articleID(link: URL(string: "https://example.org/a")!) == nil)
    }

    @Test(
        "a change from the server is saved only over the task it was merged with; a task changed meanwhile is left for the next sync"
    )
    func stale() async throws {
        let database = try AppDatabase.inMemory()
        let sync = ChoreSyncRepository(database: database)
        let tasks = TaskRepository(database: database)
        let saved = try await tasks.save(HouseholdTask(name: "Bins", createdAt: now))
        let id = try #require(saved.id)
        try await sync.save([item("b", task: id)])
        var edited = saved
        edited.name = "Bins (user)"
        edited.modifiedAt = now.addingTimeInterval(5)
        _ = try await tasks.save(edited)
        var remote = saved
        remote.name = "Bins (server)"
        var newer = item("b", task: id)
        newer.etag = "\"b2\""
        #expect(
            try await sync.apply(.update(remote, expected: saved, completion: nil, item: newer), source: .app) == .stale
        )
        #expect(try await tasks.task(id: id)?.name == "Bins (user)")
        #expect(try await sync.items().map(\.etag) == ["\"b\""])
        #expect(try await sync.apply(.delete(expected: saved, href: newer.href), source: .app) == .stale)
        #expect(
            try await sync.apply(.update(remote, expected: edited, completion: nil, item: newer), source: .app)
                == .written(taskID: id))
        #expect(try await tasks.task(id: id)?.name == "Bins (server)")
        #expect(try await sync.items().map(\.etag) == ["\"b2\""])
        #expect(
            try await sync.apply(.delete(expected: remote, href: newer.href), source: .app) == .written(taskID: nil))
        #expect(try await tasks.task(id: id) == nil)
        #expect(try await sync.items().isEmpty)
    }

    @Test("a task is reserved once: a second reservation (another process, another UID) is refused")
    func reserve() async throws {
        let database = try AppDatabase.inMemory()
        let sync = ChoreSyncRepository(database: database)
        let id = try #require(
            try await TaskRepository(database: database).save(HouseholdTask(name: "Bins", createdAt: now)).id)
        var first = item("one", task: id)
        first.etag = nil
        var second = item("two", task: id)
        second.etag = nil
        #expect(try await sync.apply(.reserve(first), source: .app) == .written(taskID: id))
        #expect(try await sync.apply(.reserve(second), source: .app) == .stale)
        #expect(try await sync.apply(.reserve(item("gone", task: 4242)), source: .app) == .stale)
        #expect(try await sync.items() == [first])
    }

    @Test("a task deleted and restored by undo gets its object back, also after a sync saved the object meanwhile")
    func undoRelinks() async throws {
        let database = try AppDatabase.inMemory()
        let sync = ChoreSyncRepository(database: database)
        let tasks = TaskRepository(database: database)
        let id = try #require(try await tasks.save(HouseholdTask(name: "Bins", createdAt: now), undoable: true).id)
        try await sync.save([item("b", task: id)])
        try await tasks.delete(id: id, undoable: true)
        #expect(try await sync.items().map(\.taskID) == [nil])
        // A sync that sees the object unchanged there saves it again, still without a task.
        var again = item("b", task: nil)
        again.etag = "\"b2\""
        _ = try await sync.apply(.item(again), source: .app)
        _ = try await tasks.undo()
        #expect(try await sync.items().map(\.taskID) == [id])
        #expect(try await sync.items().map(\.etag) == ["\"b2\""])
        // A new task never takes an old task's object.
        let other = try await tasks.save(HouseholdTask(name: "Dishes", createdAt: now))
        #expect(other.id != id)
        #expect(try await sync.items().map(\.taskID) == [id])
    }

    @Test("an object another sync has already made a task is not inserted again as a second task")
    func insertTakenObject() async throws {
        let database = try AppDatabase.inMemory()
        let sync = ChoreSyncRepository(database: database)
        let id = try #require(
            try await TaskRepository(database: database).save(HouseholdTask(name: "Bins", createdAt: now)).id)
        var reserved = item("b", task: id)
        reserved.etag = nil
        #expect(try await sync.apply(.reserve(reserved), source: .app) == .written(taskID: id))
        let copy = HouseholdTask(name: "Bins", createdAt: now)
        #expect(
            try await sync.apply(.insert(copy, completion: nil, item: item("b", task: nil)), source: .app) == .stale)
        #expect(try await TaskRepository(database: database).tasks(.all).count == 1)
        #expect(try await sync.items() == [reserved])
    }
}
