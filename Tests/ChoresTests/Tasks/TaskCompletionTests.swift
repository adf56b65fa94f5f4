import Foundation
import Models
import Storage
import Testing

@testable import Chores

@Suite("Task completion and editing")
struct TaskCompletionTests {
    /// Adds a task due on `day` (`YYYY-MM-DD`) with the clock at that day's noon in `zone`.
    func addTask(
        _ service: TaskService, _ clock: TestClock, due day: String?, every frequency: Frequency? = nil,
        zone: String = "UTC", name: String = "Chore"
    ) async throws -> Int64 {
        let saved = clock.now
        defer { clock.set(saved) }
        clock.set(instant("\(day ?? "2026-11-22")T12:00", in: zone))
        let due = try day.map { try dateArgument($0, now: clock.now, calendar: calendar(zone)) }
        return try #require(try await service.add(name: name, due: due, frequency: frequency).id)
    }

    @Test("a weekly chore three weeks late moves to its next future occurrence, from its due date")
    func lateWeekly() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        let id = try await addTask(service, clock, due: "2026-11-01", every: try .every(1, .week))
        let done = try await service.complete(id: id)
        // Sunday the 1st + 3 weeks is Sunday the 22nd, today: the next one is the 29th.
        #expect(done.dueDay == "2026-11-29")
        #expect(!done.isDone)
        #expect(done.modifiedAt == noon)
        #expect(
            try await service.completions(id: id)
                == [TaskCompletion(taskID: id, dueDate: storedDay("2026-11-01"), completedAt: noon)])
    }

    @Test("done early or on the day, a chore keeps its rhythm")
    func earlyAndOnTime() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        let onTime = try await addTask(service, clock, due: "2026-11-22", every: try .every(1, .week))
        let early = try await addTask(service, clock, due: "2026-11-25", every: try .every(2, .day))
        #expect(try await service.complete(id: onTime).dueDay == "2026-11-29")
        #expect(try await service.complete(id: early).dueDay == "2026-11-27")
    }

    @Test("editing the due date or the frequency starts a new rhythm from the new due date")
    func editReanchors() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(instant("2027-01-31T08:00", in: "UTC"))
        let service = store.service(clock)
        let monthly = try await addTask(service, clock, due: "2027-01-31", every: try .every(1, .month))
        _ = try await service.edit(id: monthly, due: .set(instant("2027-02-15T00:00", in: "UTC")))
        clock.set(instant("2027-02-15T08:00", in: "UTC"))
        #expect(try await service.complete(id: monthly).dueDay == "2027-03-15")
        _ = try await service.edit(id: monthly, frequency: .clear)
        #expect(try await service.task(id: monthly).anchorDate == nil)
    }

    @Test("a completion that would move past the year 9999 is refused, naming the rule")
    func pastYear9999() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(instant("9999-12-31T08:00", in: "UTC"))
        let service = store.service(clock)
        let yearly = try await addTask(service, clock, due: "9999-12-31", every: try .every(1, .year))
        await #expect(
            throws: TaskError.invalid(field: "due", rule: "the next occurrence would fall after the year 9999")
        ) {
            try await service.complete(id: yearly)
        }
        #expect(try await service.task(id: yearly).dueDay == "9999-12-31")
    }

    @Test("month ends and leap days follow the Frequency rules")
    func monthEndAndLeapDay() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(instant("2027-01-31T08:00", in: "UTC"))
        let service = store.service(clock)
        let monthly = try await addTask(service, clock, due: "2027-01-31", every: try .every(1, .month))
        #expect(try await service.complete(id: monthly).dueDay == "2027-02-28")
        // Occurrences count from the anchor (the first due day), so the month end comes back:
        // Feb 28 → Mar 31, then Apr 30.
        clock.set(instant("2027-02-28T08:00", in: "UTC"))
        #expect(try await service.complete(id: monthly).dueDay == "2027-03-31")
        clock.set(instant("2027-03-31T08:00", in: "UTC"))
        #expect(try await service.complete(id: monthly).dueDay == "2027-04-30")
        // Undo restores the due day and the anchor with it.
        _ = try await service.undo()
        #expect(try await service.task(id: monthly).dueDay == "2027-03-31")
        clock.set(instant("2027-02-28T08:00", in: "UTC"))
        // Skipped occurrences are counted from the missed due day in one step: Jan 31 → (Feb 28) → Mar 31.
        let late = try await addTask(service, clock, due: "2027-01-31", every: try .every(1, .month))
        clock.set(instant("2027-03-01T08:00", in: "UTC"))
        #expect(try await service.complete(id: late).dueDay == "2027-03-31")
        let yearly = try await addTask(service, clock, due: "2028-02-29", every: try .every(1, .year))
        clock.set(instant("2028-02-29T08:00", in: "UTC"))
        #expect(try await service.complete(id: yearly).dueDay == "2029-02-28")
    }

    @Test("past occurrences are skipped up to today in the user's time zone")
    func todayFollowsTimeZone() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)  // Monday 01:00 in Auckland, Sunday 04:00 in Los Angeles
        let daily = try Frequency.every(1, .day)
        let auckland = store.service(clock, zone: "Pacific/Auckland")
        let losAngeles = store.service(clock, zone: "America/Los_Angeles")
        let first = try await addTask(auckland, clock, due: "2026-11-22", every: daily, zone: "Pacific/Auckland")
        let second = try await addTask(losAngeles, clock, due: "2026-11-22", every: daily, zone: "America/Los_Angeles")
        #expect(try await auckland.complete(id: first).dueDay == "2026-11-24")
        #expect(try await losAngeles.complete(id: second).dueDay == "2026-11-23")
    }

    @Test("a daily chore across a daylight-saving change moves one day at a time")
    func daylightSaving() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let zone = "America/New_York"  // clocks go back on 2026-11-01
        let clock = TestClock(instant("2026-10-31T23:30", in: zone))
        let service = store.service(clock, zone: zone)
        let id = try await addTask(service, clock, due: "2026-10-31", every: try .every(1, .day), zone: zone)
        #expect(try await service.complete(id: id).dueDay == "2026-11-01")
        clock.set(instant("2026-11-01T23:30", in: zone))
        #expect(try await service.complete(id: id).dueDay == "2026-11-02")
    }

    @Test("a one-off task becomes done once; doing it again is an error")
    func oneOff() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        let id = try await addTask(service, clock, due: "2026-11-20")
        let done = try await service.complete(id: id)
        #expect(done.isDone && done.dueDay == "2026-11-20")
        await #expect(throws: TaskError.alreadyDone(id: id)) { try await service.complete(id: id) }
        #expect(try await service.completions(id: id).count == 1)
        #expect(try await service.list(.done).map(\.id) == [id])
    }

    @Test("an undated recurring task done today is next due one period after today")
    func undatedRecurring() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        let id = try await addTask(service, clock, due: nil, name: "Descale the kettle")
        _ = try await service.edit(id: id, frequency: .set(try .every(2, .week)))
        #expect(try await service.task(id: id).dueDay == "2026-11-22")
        #expect(try await service.complete(id: id).dueDay == "2026-12-06")
    }

    @Test("editing changes only the given fields and names what is wrong")
    func edit() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        let added = try await service.add(name: "Bins", note: "blue", frequency: try .every(1, .week))
        let id = try #require(added.id)
        clock.set(noon.addingTimeInterval(3600))
        let renamed = try await service.edit(id: id, name: " Recycling ", note: .clear)
        #expect(renamed.name == "Recycling" && renamed.note == nil)
        #expect(renamed.frequency == added.frequency && renamed.dueDate == added.dueDate)
        #expect(renamed.modifiedAt == clock.now && renamed.createdAt == noon)
        let due = try dateArgument("+3d", now: clock.now, calendar: calendar("UTC"))
        let once = try await service.edit(id: id, due: .set(due), frequency: .clear)
        #expect(once.frequency == nil && once.dueDay == "2026-11-25")
        #expect(try await service.edit(id: id, note: .set("  ")).note == nil)
        await #expect(throws: TaskError.invalid(field: "name", rule: "must not be empty")) {
            try await service.edit(id: id, name: "")
        }
        let rare = try Frequency(count: 1000, unit: .month)
        await #expect(
            throws: TaskError.invalid(field: "frequency", rule: "every 1000 months is too far apart (at most 999)")
        ) {
            try await service.edit(id: id, frequency: .set(rare))
        }
        await #expect(throws: TaskError.self) { try await service.edit(id: id) }
        await #expect(throws: TaskError.notFound(id: 99)) { try await service.edit(id: 99, name: "Ghost") }
        #expect(try await service.task(id: id).name == "Recycling")
    }

    @Test("a done one-off task made recurring is open again")
    func reopenByRecurring() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let service = store.service(clock)
        let id = try await addTask(service, clock, due: "2026-11-20")
        _ = try await service.complete(id: id)
        let recurring = try await service.edit(id: id, frequency: .set(try .every(1, .month)))
        #expect(!recurring.isDone && recurring.dueDay == "2026-11-20")
        #expect(try await service.list().map(\.id) == [id])
    }
}
