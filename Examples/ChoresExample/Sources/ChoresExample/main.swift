import Chores
import Foundation
import Store

// Keeps three chores in an in-memory store on a fixed clock (Monday 2026-11-23, noon UTC):
// a weekly one done once, a one-off one, and one undone by mistake and brought back. Chores
// re-exports the Models values its API speaks (`HouseholdTask`, `Frequency`).

var utc = Calendar(identifier: .gregorian)
utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
let monday = Date(timeIntervalSince1970: 1_795_435_200)
let tasks = TaskService(store: try LocalStore.inMemory(), now: { monday }, calendar: utc)

let bins = try await tasks.add(
    name: "Take out the bins", due: try tasks.today(), frequency: try Frequency(count: 1, unit: .week))
let plumber = try await tasks.add(name: "Call the plumber", note: "the kitchen tap")
let done = try await tasks.complete(id: bins.id ?? 0)
print("done \(bins.name): next due \(done.dueDay ?? "never")")

try await tasks.remove(id: plumber.id ?? 0)
let undone = try await tasks.undo()
print("undid the \(undone.kind) of \(undone.task?.name ?? "#\(undone.taskID)")")

for task in try await tasks.list(.open) {
    let every = task.frequency.map { ", \($0)" } ?? ""
    print("- \(task.name) (due \(task.dueDay ?? "any day")\(every))")
}
