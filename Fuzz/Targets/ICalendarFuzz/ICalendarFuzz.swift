import Foundation
import Models

@testable import Chores

/// libFuzzer entry point for the iCalendar reader behind shared chores: `ICalendar(parsing:)`
/// and `ChoreObject` on any bytes (read as UTF-8, as a server's body is).
///
/// Invariants: nothing crashes; an object that reads is written back exactly as it came, and
/// reads again to the same object; a chore whose fields read keeps its text when the same
/// fields are applied, and reads back a changed name and note when they are; fields that fit
/// a task (as a sync takes them) make a valid task, and the object patched to them reads back
/// to the same fields, so a sync never sees a change it made itself.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzICalendar(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let calendar = try? ICalendar(parsing: text) else { return 0 }
    guard calendar.text == text else { fatalError("written back differently:\n\(calendar.text.debugDescription)") }
    guard let again = try? ICalendar(parsing: calendar.text), again == calendar else {
        fatalError("the written text does not read back to the same object")
    }
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
    guard var chore = try? ChoreObject(parsing: text), let fields = try? chore.fields(calendar: utc) else { return 0 }
    let now = Date(timeIntervalSince1970: 1_731_000_000)
    if let fitting = try? ChoreMapping.normalized(fields) {
        let task = ChoreMapping.task(fitting, current: nil, articleID: nil, now: now).task
        guard (try? task.validate()) != nil, (try? ChoreMapping.normalized(fitting)) == fitting else {
            fatalError("fields that fit a task make an invalid one: \(task)")
        }
        // What a sync sends after an edit here: a new name, due day and completion.
        var wanted = fitting
        wanted.name = fitting.name + " x"
        wanted.due = Date(timeIntervalSince1970: 1_795_478_400)  // 2026-11-24
        wanted.completed = wanted.frequency != nil || wanted.isDone ? now : nil
        // And the details: a time in a zone, a priority, reminders, a list, a parent, one
        // more completion in the history.
        wanted.dueTime = TimeOfDay(hour: 7, minute: 15)
        wanted.timeZone = "Europe/Berlin"
        wanted.priority = .low
        wanted.reminders = [0, 30, 1440]
        wanted.list = "Groceries"
        wanted.parentUID = "parent-1"
        wanted.history = ChoreCompletion.normalized(fitting.history + [ChoreCompletion(at: now, device: "Kitchen")])
        var patched = chore
        patched.apply(ChoreMapping.patched(raw: fields, normalized: fitting, wanted: wanted), now: now, calendar: utc)
        guard let back = try? ChoreObject(parsing: patched.calendar.text).fields(calendar: utc),
            (try? ChoreMapping.normalized(back)) == wanted
        else { fatalError("the patched object reads back to other fields:\n\(patched.calendar.text.debugDescription)") }
    }
    var same = chore
    same.apply(fields, now: now, calendar: utc)
    guard same.calendar.text == text else { fatalError("applying the fields it has changed the object") }
    var changed = fields
    changed.name = fields.name + " ; , \\ \u{1F9F9} renamed"
    changed.note = (fields.note ?? "") + "\nline two"
    chore.apply(changed, now: now, calendar: utc)
    guard let reread = try? ChoreObject(parsing: chore.calendar.text), let read = try? reread.fields(calendar: utc)
    else { fatalError("the patched object does not read back:\n\(chore.calendar.text.debugDescription)") }
    guard read.name == changed.name.trimmingCharacters(in: .whitespacesAndNewlines), read.note == changed.note else {
        fatalError("the patched fields read back as \(read.name.debugDescription), \(String(describing: read.note))")
    }
    // Lines end in CRLF, or (in text read in) in a bare LF or CR.
    for line in chore.calendar.text.split(whereSeparator: \.isNewline) where line.utf8.count > 75 {
        // Only lines Tidings wrote are folded; those read in are kept as they came.
        guard text.contains(line) else { fatalError("a written line is longer than 75 octets: \(line)") }
    }
    return 0
}
