import Benchmark
import Chores
import Foundation
import Models
import Store

// Household tasks through TaskService, on real database files under /tmp/tidings-bench (WAL,
// synchronous=NORMAL, as the app opens them). Every add is its own transaction and records its
// undo entry, exactly as `task add` in the REPL will.
// - adding 10,000 tasks to a fresh file: one iteration is all 10,000 (divide for one add);
// - one add to a file holding 10,000 tasks: the library time of one `task add` (taskwarrior 2.6
//   takes about 9 ms per `task add` from its command line on this machine);
// - listing the overdue tasks among 10,000 (about a third are overdue);
// - completing a recurring task (read, move, completion record and undo entry in one transaction).

private let benchDirectory = URL(fileURLWithPath: "/tmp/tidings-bench")

/// A fixed "now", so every run sees the same overdue tasks: 2026-11-22T12:00:00Z.
private let fixedNow = Date(timeIntervalSince1970: 1_795_348_800)

private let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
    return calendar
}()

/// A new database file (and its WAL files) replacing any earlier one, opened as the app opens it.
private func freshDatabase(_ name: String) throws -> LocalStore {
    try FileManager.default.createDirectory(at: benchDirectory, withIntermediateDirectories: true)
    let path = benchDirectory.appendingPathComponent(name).path
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    return try LocalStore.open(path: path)
}

private func service(_ store: LocalStore) -> TaskService {
    TaskService(store: store, now: { fixedNow }, calendar: utc)
}

/// Adds `count` tasks due from 30 days ago to 60 days ahead (one in ten undated, one in three
/// recurring) and returns their ids.
@discardableResult
private func addTasks(_ service: TaskService, count: Int) async throws -> [Int64] {
    let weekly = try Frequency(count: 1, unit: .week)
    var ids: [Int64] = []
    ids.reserveCapacity(count)
    for index in 0..<count {
        let due = index % 10 == 9 ? nil : fixedNow.addingTimeInterval(Double(index % 90 - 30) * 86_400)
        let task = try await service.add(
            name: "Chore \(index)", note: index % 4 == 0 ? "note \(index)" : nil, due: due,
            frequency: index % 3 == 0 ? weekly : nil)
        ids.append(task.id ?? 0)
    }
    return ids
}

/// Data made in setup and only read while measuring (the runner runs setup, then the
/// iterations, one after the other), so the unchecked sendability is never exercised.
private final class State: @unchecked Sendable {
    var database: LocalStore?
    var ids: [Int64] = []

    /// A fresh database file `name` holding 10,000 tasks, kept with their ids.
    func prepare(_ name: String) async throws {
        let database = try freshDatabase(name)
        ids = try await addTasks(service(database), count: 10_000)
        self.database = database
    }
}

let benchmarks: @Sendable () -> Void = {
    let heavy = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], warmupIterations: 0, scalingFactor: .one,
        maxDuration: .seconds(60), maxIterations: 5)
    let quick = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 10, scalingFactor: .one,
        maxDuration: .seconds(5))

    Benchmark(
        "Tasks: add 10,000 tasks to a fresh file (one transaction and undo entry each)", configuration: heavy
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let tasks = service(try freshDatabase("tasks-add.sqlite"))
            benchmark.startMeasurement()
            blackHole(try await addTasks(tasks, count: 10_000))
            benchmark.stopMeasurement()
        }
    }

    let stored = State()
    Benchmark(
        "Tasks: one add to a file holding 10,000 tasks", configuration: quick,
        closure: { benchmark in
            guard let database = stored.database else { return }
            let tasks = service(database)
            for _ in benchmark.scaledIterations {
                blackHole(try await tasks.add(name: "Take out the bins", due: fixedNow))
            }
        },
        setup: { try await stored.prepare("tasks-one-add.sqlite") })

    let listed = State()
    Benchmark(
        "Tasks: list the overdue among 10,000 tasks (~3,000)", configuration: quick,
        closure: { benchmark in
            guard let database = listed.database else { return }
            let tasks = service(database)
            for _ in benchmark.scaledIterations {
                blackHole(try await tasks.list(.overdue))
            }
        },
        setup: { try await listed.prepare("tasks-list.sqlite") })

    let completed = State()
    Benchmark(
        "Tasks: complete a recurring task among 10,000", configuration: quick,
        closure: { benchmark in
            guard let database = completed.database else { return }
            let tasks = service(database)
            var next = 0
            for _ in benchmark.scaledIterations {
                next = (next + 1) % completed.ids.count
                blackHole(try await tasks.complete(id: completed.ids[next]))
            }
        },
        setup: {
            try await completed.prepare("tasks-complete.sqlite")
            let ids = completed.ids
            completed.ids = stride(from: 0, to: ids.count, by: 3).map { ids[$0] }  // the recurring ones
        })
}
