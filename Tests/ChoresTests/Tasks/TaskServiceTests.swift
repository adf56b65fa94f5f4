import Foundation
import Models
import Storage
import Store
import Testing

@testable import Chores

@Suite("Task service")
struct TaskServiceTests {
    @Test("an added task comes back with its id, a trimmed name, its note and its due day")
    func add() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon), zone: "Europe/Berlin")
        let due = try dateArgument("2026-11-25", now: noon, calendar: calendar("Europe/Berlin"))
        let task = try await service.add(name: "  Call the plumber ", note: "leaky tap", due: due)
        let id = try #require(task.id)
        #expect(task.name == "Call the plumber")
        #expect(task.note == "leaky tap")
        #expect(task.dueDate == storedDay("2026-11-25"))
        #expect(task.dueDay == "2026-11-25")
        #expect(task.frequency == nil && !task.isDone)
        #expect(task.createdAt == noon && task.modifiedAt == noon)
        #expect(try await service.task(id: id) == task)
    }

    @Test("a blank name is refused naming the field and rule, and nothing is saved")
    func blankName() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        // The save runs in the background; its result reaches the caller.
        let result = await Task { try await service.add(name: " \n ") }.result
        #expect(throws: TaskError.invalid(field: "name", rule: "must not be empty")) { try result.get() }
        #expect(TaskError.invalid(field: "name", rule: "must not be empty").description == "name: must not be empty")
        #expect(try await service.list(.all).isEmpty)
        let saved = await Task { try await service.add(name: "Water the plants") }.result
        #expect(try saved.get().id != nil)
    }

    @Test("frequencies: 1 to 999 units, errors naming the field and rule")
    func frequencyRules() throws {
        #expect(try Frequency.every(2, .week) == Frequency(count: 2, unit: .week))
        #expect(try Frequency.parse(count: "3", unit: "Days") == Frequency(count: 3, unit: .day))
        #expect(try Frequency.parse(count: "1", unit: "month") == Frequency(count: 1, unit: .month))
        #expect(throws: TaskError.invalid(field: "frequency", rule: "every 0 days is not a frequency")) {
            try Frequency.every(0, .day)
        }
        #expect(
            TaskError.invalid(field: "frequency", rule: "every 0 days is not a frequency").description
                == "frequency: every 0 days is not a frequency")
        #expect(throws: TaskError.invalid(field: "frequency", rule: "every -1 weeks is not a frequency")) {
            try Frequency.parse(count: "-1", unit: "weeks")
        }
        #expect(throws: TaskError.invalid(field: "frequency", rule: "every 1000 years is too far apart (at most 999)"))
        {
            try Frequency.every(1000, .year)
        }
        #expect(throws: TaskError.invalid(field: "frequency", rule: "\"two\" is not a whole number of weeks")) {
            try Frequency.parse(count: "two", unit: "weeks")
        }
        #expect(
            throws: TaskError.invalid(
                field: "frequency", rule: "\"fortnight\" is not a unit (day, week, month or year)")
        ) {
            try Frequency.parse(count: "1", unit: "fortnight")
        }
    }

    @Test("a frequency made without the task rules is still checked when saved")
    func frequencyCheckedOnSave() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        let rare = try Frequency(count: 5000, unit: .day)
        await #expect(
            throws: TaskError.invalid(field: "frequency", rule: "every 5000 days is too far apart (at most 999)")
        ) {
            try await service.add(name: "Rare", frequency: rare)
        }
    }

    @Test("a recurring task without a due date is due today in the user's time zone")
    func recurringDefaultsToToday() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let weekly = try Frequency.every(1, .week)
        let auckland = try await store.service(clock, zone: "Pacific/Auckland").add(name: "Bins", frequency: weekly)
        let losAngeles = try await store.service(clock, zone: "America/Los_Angeles").add(
            name: "Bins", frequency: weekly)
        #expect(auckland.dueDay == "2026-11-23")
        #expect(losAngeles.dueDay == "2026-11-22")
        #expect(try await store.service(clock).add(name: "Once").dueDate == nil)
    }

    @Test("a link to an article that does not exist names the field")
    func unknownArticle() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        await #expect(throws: TaskError.invalid(field: "article", rule: "there is no article #7")) {
            try await store.service(TestClock(noon)).add(name: "Read later", articleID: 7)
        }
    }

    @Test(
        "a due day outside the Gregorian calendar's years (1583 to 9999) is refused, before Christ and before the reform included; the bounds are kept"
    )
    func dueOutOfRange() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        let refused = [
            instant("12000-01-01", in: "UTC"), instant("1582-12-31", in: "UTC"),
            // 0001-01-01 and 3000 years before now, which Foundation's calendar names a year of
            // the era before Christ (year 975 by its count).
            Date(timeIntervalSince1970: -62_135_596_800), noon.addingTimeInterval(-3_000 * 365.25 * 86_400),
        ]
        for due in refused {
            await #expect(throws: TaskError.invalid(field: "due", rule: "must be a day in the years 1583 to 9999")) {
                try await service.add(name: "Out of range", due: due)
            }
        }
        let first = try await service.add(name: "First", due: instant("1583-01-01", in: "UTC"))
        let last = try await service.add(name: "Last", due: instant("9999-12-31", in: "UTC"))
        #expect(first.dueDate.map(RFC3339.string(from:)) == "1583-01-01T00:00:00Z")
        #expect(last.dueDate.map(RFC3339.string(from:)) == "9999-12-31T00:00:00Z")
    }

    @Test("a due day stays the same day when the user moves to another time zone")
    func dueDayAcrossTimeZones() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let clock = TestClock(noon)
        let due = try dateArgument("2026-11-25", now: noon, calendar: calendar("Asia/Tokyo"))
        let added = try await store.service(clock, zone: "Asia/Tokyo").add(name: "Dentist", due: due)
        let reopened = TaskService(
            store: LocalStore(database: try store.reopen()), now: clock.closure,
            calendar: calendar("America/Los_Angeles"))
        let listed = try await reopened.list()
        #expect(listed.map(\.dueDay) == ["2026-11-25"])
        #expect(listed.first?.dueDate == added.dueDate)
        // A late-evening time names its own day, not the next one in UTC.
        let evening = try dateArgument("2026-11-26T23:30", now: noon, calendar: calendar("America/Los_Angeles"))
        #expect(try await reopened.add(name: "Late", due: evening).dueDay == "2026-11-26")
    }

    @Test("removing a task deletes it; unknown ids are named")
    func remove() async throws {
        let store = try TemporaryDatabase()
        defer { store.remove() }
        let service = store.service(TestClock(noon))
        let id = try #require(try await service.add(name: "Bins").id)
        try await service.remove(id: id)
        await #expect(throws: TaskError.notFound(id: id)) { try await service.task(id: id) }
        await #expect(throws: TaskError.notFound(id: id)) { try await service.remove(id: id) }
        await #expect(throws: TaskError.notFound(id: 99)) { try await service.complete(id: 99) }
        #expect(TaskError.notFound(id: 99).description == "there is no task #99")
        #expect(TaskError.notFound(id: 99).code == "not_found")
    }
}
