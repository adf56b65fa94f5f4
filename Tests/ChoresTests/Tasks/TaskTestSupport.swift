import Foundation
import Models
import Storage
import Store
import Synchronization
import Testing

@testable import Chores

/// A clock a test sets by hand, so no test depends on today's date.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ date: Date) { current = Mutex(date) }

    var now: Date { current.withLock { $0 } }

    func set(_ date: Date) { current.withLock { $0 = date } }

    /// The closure a service takes.
    var closure: @Sendable () -> Date { { self.now } }
}

/// A Gregorian calendar in the time zone with this identifier.
func calendar(_ zone: String) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
    return calendar
}

/// The instant a local `YYYY-MM-DDTHH:MM` (or `YYYY-MM-DD`, midnight) names in `zone`.
func instant(_ text: String, in zone: String) -> Date {
    let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
    let components = DateComponents(
        year: parts[0], month: parts[1], day: parts[2], hour: parts.count > 3 ? parts[3] : 0,
        minute: parts.count > 4 ? parts[4] : 0)
    return calendar(zone).date(from: components) ?? .distantPast
}

/// How `TaskService` stores the due day `YYYY-MM-DD`: 00:00 UTC of it.
func storedDay(_ text: String) -> Date { instant(text, in: "UTC") }

/// Sunday 2026-11-22, 12:00 UTC: Monday 01:00 in Auckland, Sunday 04:00 in Los Angeles.
let noon = instant("2026-11-22T12:00", in: "UTC")

/// A database file in a fresh temporary directory; `remove()` deletes the directory.
struct TemporaryDatabase {
    let directory: URL
    let database: AppDatabase

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-tasks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try AppDatabase(path: directory.appendingPathComponent("tidings.sqlite").path)
    }

    var path: String { directory.appendingPathComponent("tidings.sqlite").path }

    /// Opens the same file again, as a restarted app would.
    func reopen() throws -> AppDatabase { try AppDatabase(path: path) }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A service on this database with `clock` in `zone`.
    func service(_ clock: TestClock, zone: String = "UTC", source: ChangeSource = .user) -> TaskService {
        TaskService(
            store: LocalStore(database: database), now: clock.closure, calendar: calendar(zone), source: source,
            undoLimit: 100)
    }
}

extension AsyncStream.Iterator {
    /// The next element that satisfies `predicate`, or `nil` when the stream ends first.
    mutating func next(where predicate: (Element) -> Bool) async -> Element? {
        while let element = await next() {
            if predicate(element) { return element }
        }
        return nil
    }
}

/// A date as the command line names one (`+3d`, `-10d`: the start of the day so many days from
/// `now`; `YYYY-MM-DD`: the start of that day; `YYYY-MM-DDTHH:MM`: that minute), in the
/// calendar's time zone. The command line's own reader is the REPL's; these tests only need to
/// say which day they mean.
func dateArgument(_ text: String, now: Date, calendar: Calendar) throws -> Date {
    if let sign = text.first, sign == "+" || sign == "-", text.hasSuffix("d"),
        let count = Int(text.dropFirst().dropLast())
    {
        let moved = try #require(calendar.date(byAdding: .day, value: sign == "-" ? -count : count, to: now))
        return calendar.startOfDay(for: moved)
    }
    return instant(text, in: calendar.timeZone.identifier)
}
