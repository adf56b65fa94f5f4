import Foundation
import Models
import Storage
import Testing

@testable import Chores

@Suite("Task lists")
struct TaskListingTests {
    /// One task per interesting due day around Sunday 2026-11-22, named after it.
    func fill(_ service: TaskService) async throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        let utc = calendar("UTC")
        for (name, offset) in [
            ("overdue", "-3d"), ("today", "+0d"), ("tomorrow", "+1d"), ("in 7 days", "+7d"),
            ("in 8 days", "+8d"), ("b today", "+0d"),
        ] {
            let due = try dateArgument(offset, now: noon, calendar: utc)
            let id = try #require(try await service.add(name: name, due: due).id)
            ids[name] = id
        }
        let someday = try #require(try await service.add(name: "someday").id)
        ids["someday"] = someday
        let done = try #require(try await service.add(name: "done", due: noon).id)
        _ = try await service.complete(id: done)
        ids["done"] = done
        return ids
    }

    func names(_ service: TaskService, _ filter: TaskListFilter) async throws -> [String] {
        try await service.list(filter).map(\.name)
    }

    @Test("open tasks by due date then name, undated last; each filter selects its days")
    func filters() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        _ = try await fill(service)
        let open = ["overdue", "b today", "today", "tomorrow", "in 7 days", "in 8 days", "someday"]
        #expect(try await names(service, .open) == open)
        #expect(try await service.list().map(\.name) == open)
        #expect(try await names(service, .overdue) == ["overdue"])
        #expect(try await names(service, .dueToday) == ["b today", "today"])
        #expect(try await names(service, .upcoming) == ["tomorrow", "in 7 days"])
        #expect(try await names(service, .done) == ["done"])
        #expect(try await names(service, .all) == open + ["done"])
    }

    @Test("what is due today depends on the user's time zone at the same instant")
    func todayInTimeZone() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let monday = try dateArgument("2026-11-23", now: noon, calendar: calendar("UTC"))
        _ = try await store.service(clock).add(name: "Monday", due: monday)
        let auckland = store.service(clock, zone: "Pacific/Auckland")
        let losAngeles = store.service(clock, zone: "America/Los_Angeles")
        #expect(try await names(auckland, .dueToday) == ["Monday"])
        #expect(try await names(auckland, .upcoming).isEmpty)
        #expect(try await names(losAngeles, .dueToday).isEmpty)
        #expect(try await names(losAngeles, .upcoming) == ["Monday"])
        clock.set(instant("2026-11-24T01:00", in: "Pacific/Auckland"))
        #expect(try await names(auckland, .overdue) == ["Monday"])
        #expect(try await names(losAngeles, .dueToday) == ["Monday"])
    }

    @Test("the service's errors have stable codes")
    func errorCodes() {
        #expect(TaskError.invalid(field: "name", rule: "must not be empty").code == "invalid")
        #expect(TaskError.alreadyDone(id: 1).code == "already_done")
        #expect(TaskError.nothingToUndo.code == "nothing_to_undo")
        #expect(TaskError.nothingToUndo.description == "nothing to undo")
        #expect(TaskError.storage(.sqlite(message: "disk I/O error")).description == "database error: disk I/O error")
    }
}
