import Chores
import Foundation
import Models
import Store
import Synchronization
import Testing

@testable import REPL

/// What an interactive session says about chores falling due, on a clock the test moves.
@Suite("chore alerts before the prompt")
struct ChoreAlertsTests {
    final class Clock: Sendable {
        private let time: Mutex<Date>
        init(_ text: String) { time = Mutex(ISO8601DateFormatter().date(from: text) ?? Date()) }
        var now: Date { time.withLock { $0 } }
        func advance(minutes: Double) { time.withLock { $0 = $0.addingTimeInterval(minutes * 60) } }
    }

    static func setUp(_ clock: Clock) throws -> (TaskService, ChoreAlerts) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
        let store = try LocalStore.inMemory()
        let tasks = TaskService(store: store, now: { clock.now }, calendar: calendar)
        return (tasks, ChoreAlerts(tasks: tasks, calendar: calendar, now: { clock.now }))
    }

    static func day(_ text: String) -> Date { ISO8601DateFormatter().date(from: text + "T00:00:00Z") ?? Date() }

    @Test("the start says how many are overdue and due today; nothing when none is")
    func start() async throws {
        let clock = Clock("2026-11-27T08:00:00Z")  // 09:00 in Berlin
        let (tasks, alerts) = try Self.setUp(clock)
        #expect(await alerts.start() == nil)
        _ = try await tasks.add(name: "Taxes", due: Self.day("2026-11-20"))
        _ = try await tasks.add(name: "Sweep", due: Self.day("2026-11-27"))
        _ = try await tasks.add(
            name: "Call", due: Self.day("2026-11-27"),
            details: TaskDetailChanges(dueTime: .set(TimeOfDay(hour: 8, minute: 30)!)))
        _ = try await tasks.add(
            name: "Bake", due: Self.day("2026-11-27"),
            details: TaskDetailChanges(dueTime: .set(TimeOfDay(hour: 18, minute: 0)!)))
        _ = try await tasks.add(name: "Later", due: Self.day("2026-11-30"))
        // Overdue: Taxes (a past day) and Call (08:30 passed); due today: Sweep and Bake.
        #expect(await alerts.start() == "2 overdue, 2 due today")
        #expect(await alerts.look() == [])
    }

    @Test("a time that passes, a reminder that comes, and a chore that arrives already due are each told once")
    func later() async throws {
        let clock = Clock("2026-11-27T08:00:00Z")
        let (tasks, alerts) = try Self.setUp(clock)
        _ = try await tasks.add(
            name: "Bake \u{202E}cake", due: Self.day("2026-11-27"),
            details: TaskDetailChanges(dueTime: .set(TimeOfDay(hour: 9, minute: 30)!), reminders: .set([15])))
        _ = await alerts.start()
        clock.advance(minutes: 10)  // 09:10
        #expect(await alerts.look() == [])
        clock.advance(minutes: 6)  // 09:16: the reminder at 09:15 came
        #expect(await alerts.look() == ["reminder: #1 Bake cake, due at 09:30 (in 14 minutes)"])
        #expect(await alerts.look() == [])
        clock.advance(minutes: 15)  // 09:31
        #expect(await alerts.look() == ["due now: #1 Bake cake (09:30)"])
        #expect(await alerts.look() == [])
        _ = try await tasks.add(name: "Post", due: Self.day("2026-11-27"))
        _ = try await tasks.add(name: "Taxes", due: Self.day("2026-11-01"))
        _ = try await tasks.add(name: "Later", due: Self.day("2026-11-28"))
        #expect(await alerts.look() == ["overdue: #3 Taxes (due 2026-11-01)", "due today: #2 Post"])
        // The next day begins: Later is due today.
        clock.advance(minutes: 24 * 60)
        #expect(await alerts.look() == ["due today: #4 Later"])
    }

    @Test("spans read as a person says them")
    func spans() {
        #expect(ChoreAlerts.span(1) == "1 minute" && ChoreAlerts.span(45) == "45 minutes")
        #expect(ChoreAlerts.span(60) == "1 hour" && ChoreAlerts.span(125) == "2 hours 5 minutes")
        #expect(ChoreAlerts.span(2880) == "2 days")
    }
}
