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
        try await sync.setAccount(url: chores, user: "bob")
        #expect(try await sync.items().isEmpty)
        #expect(try await sync.account() == ChoreSyncAccount(url: chores, user: "bob"))
        #expect(try await tasks.task(id: #require(task.id)) != nil)
        try await sync.removeAccount()
        #expect(try await sync.account() == nil)
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
}
