import Chores
import Foundation
import Store
import Testing

// The getting-started snippet of Sources/Chores/Chores.docc/Chores.md, compiled and run.
// DocumentationTests (REPLTests) checks that the page shows this code verbatim.

/// Adds a weekly chore due today in a new in-memory store, completes it, and returns the day it
/// is due next (`YYYY-MM-DD`).
func nextWeeklyDue(now: Date, calendar: Calendar) async throws -> String? {
    let tasks = TaskService(store: try LocalStore.inMemory(), now: { now }, calendar: calendar)
    let chore = try await tasks.add(
        name: "Take out the bins", due: try tasks.today(), frequency: try Frequency(count: 1, unit: .week))
    return try await tasks.complete(id: chore.id ?? 0).dueDay
}

@Suite("Chores: getting started")
struct ChoresGettingStartedTests {
    @Test("a weekly chore done on Monday 2026-11-23 is due the Monday after")
    func weekly() async throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let monday = Date(timeIntervalSince1970: 1_795_435_200)
        #expect(try await nextWeeklyDue(now: monday, calendar: utc) == "2026-11-30")
    }
}
