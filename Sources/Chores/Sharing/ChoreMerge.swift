import Foundation
import Models

/// Merges a chore changed on both sides since the last sync, field by field against what both
/// last agreed on: a field changed on one side only takes that change; a field both changed
/// the same way keeps it; a field both changed differently takes the server's (the other
/// device's) change and is reported as a conflict, so nothing is lost silently.
package enum ChoreMerge {
    /// The merged fields and the names of the fields both sides changed differently.
    package static func merge(base: ChoreFields, local: ChoreFields, remote: ChoreFields)
        -> (fields: ChoreFields, conflicts: [String])
    {
        var merged = remote
        var conflicts: [String] = []
        func field<Value: Equatable>(_ name: String, _ path: WritableKeyPath<ChoreFields, Value>) {
            let (old, mine, theirs) = (base[keyPath: path], local[keyPath: path], remote[keyPath: path])
            if theirs == old {
                merged[keyPath: path] = mine
            } else if mine != old, mine != theirs {
                conflicts.append(name)  // both changed it differently: theirs stays
            }
        }
        field("name", \.name)
        field("note", \.note)
        field("due", \.due)
        field("frequency", \.frequency)
        field("done", \.isDone)
        field("cancelled", \.isCancelled)
        field("completed", \.completed)
        field("link", \.link)
        field("time", \.dueTime)
        field("time zone", \.timeZone)
        field("priority", \.priority)
        field("reminders", \.reminders)
        field("parent", \.parentUID)
        field("list", \.list)
        merged.history = ChoreCompletion.merge(base: base.history, local: local.history, remote: remote.history)
        return (merged, conflicts)
    }

    /// A field's value as a conflict reports it: text in quotes, a day as `2026-12-01`, a
    /// frequency as `every 2 weeks`, `none` for no value.
    package static func text(of field: String, in fields: ChoreFields) -> String {
        func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "none" }
        switch field {
        case "name": return quoted(fields.name)
        case "note": return quoted(fields.note)
        case "due": return fields.due.map(HouseholdTask.day) ?? "none"
        case "frequency": return fields.frequency.map { "\($0)" } ?? "once"
        case "done": return fields.isDone ? "done" : "open"
        case "cancelled": return fields.isCancelled ? "cancelled" : "not cancelled"
        case "completed": return fields.completed.map { RFC3339.string(from: $0) } ?? "none"
        case "link": return fields.link?.absoluteString ?? "none"
        case "time": return fields.dueTime.map(\.description) ?? "none"
        case "time zone": return fields.timeZone ?? "none"
        case "priority": return fields.priority.map(\.description) ?? "none"
        case "list": return quoted(fields.list)
        case "parent": return fields.parentUID.map { "\"\($0)\"" } ?? "none"
        case "reminders":
            return fields.reminders.isEmpty ? "none" : fields.reminders.map { "\($0)m" }.joined(separator: ", ")
        default: return "?"
        }
    }
}
