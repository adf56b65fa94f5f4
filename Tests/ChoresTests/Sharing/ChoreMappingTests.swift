import Foundation
import Storage
import Testing

@testable import Chores

/// Tasks as chores and chores as tasks.
@Suite("Chore mapping")
struct ChoreMappingTests {
    let now = ChoreHome.now

    @Test(
        "fields from other clients fit a task: control characters out, CRLF notes, whole-second completions; a blank name or an hourly rule does not"
    )
    func normalized() throws {
        var fields = ChoreFields(
            name: "  Bins\u{7}\r\nand more ", note: "line one\r\nline two\u{1B}[31m", isDone: true,
            completed: now.addingTimeInterval(0.75))
        fields = try ChoreMapping.normalized(fields)
        #expect(fields.name == "Bins  and more")
        #expect(fields.note == "line one\nline two[31m")
        #expect(fields.completed == now)
        #expect(throws: ChoreMapping.Unfit.self) { try ChoreMapping.normalized(ChoreFields(name: " \u{7} ")) }
        #expect(throws: ChoreMapping.Unfit.self) {
            try ChoreMapping.normalized(ChoreFields(name: "x", frequency: try Frequency(count: 1000, unit: .day)))
        }
        #expect(try ChoreMapping.normalized(ChoreFields(name: "x", note: " \n ")).note == nil)
        // A COMPLETED left behind on a reopened one-off chore is no completion.
        #expect(try ChoreMapping.normalized(ChoreFields(name: "x", isDone: false, completed: now)).completed == nil)
    }

    @Test("a patch takes only the fields that changed, so what another client wrote in the others stays")
    func patched() {
        let raw = ChoreFields(name: "Bins", note: "a\r\nb")
        let normalized = ChoreFields(name: "Bins", note: "a\nb")
        var wanted = normalized
        wanted.due = now
        let result = ChoreMapping.patched(raw: raw, normalized: normalized, wanted: wanted)
        #expect(result.note == "a\r\nb" && result.due == now)
    }

    @Test(
        "a completion newer than the last is recorded; the rhythm keeps its anchor when the due date moved because of it, and restarts on a new due date"
    )
    func completion() throws {
        let weekly = try Frequency(count: 1, unit: .week)
        let due = ChoreObjectTests.day("2026-11-20")
        let task = HouseholdTask(
            id: 1, name: "Bins", dueDate: due, frequency: weekly, anchorDate: ChoreObjectTests.day("2026-10-30"),
            createdAt: now
        )
        let local = ChoreSyncTask(task: task, completions: [now.addingTimeInterval(-86_400 * 7)])
        var done = ChoreMapping.fields(of: local, base: nil)
        done.due = ChoreObjectTests.day("2026-11-27")
        done.completed = now
        let (moved, completion) = ChoreMapping.task(done, current: local, articleID: nil, now: now)
        let next = ChoreObjectTests.day("2026-11-27")
        #expect(moved.dueDate == next && moved.anchorDate == task.anchorDate)
        #expect(completion == TaskCompletion(taskID: 1, dueDate: due, completedAt: now))

        var rescheduled = ChoreMapping.fields(of: local, base: nil)
        rescheduled.due = ChoreObjectTests.day("2026-11-25")
        let (again, none) = ChoreMapping.task(rescheduled, current: local, articleID: nil, now: now)
        let newDue = ChoreObjectTests.day("2026-11-25")
        #expect(none == nil && again.anchorDate == newDue)

        // An older completion than the one recorded here adds nothing.
        var older = ChoreMapping.fields(of: local, base: nil)
        older.completed = now.addingTimeInterval(-86_400 * 30)
        #expect(ChoreMapping.task(older, current: local, articleID: nil, now: now).completion == nil)
    }

    @Test(
        "a task keeps the link it was received with when its article is not here, so the link is never sent as removed")
    func link() {
        let task = HouseholdTask(id: 1, name: "Read: x", createdAt: now)
        let base = ChoreFields(name: "Read: x", link: URL(string: "https://example.org/x"))
        #expect(ChoreMapping.fields(of: ChoreSyncTask(task: task), base: base).link == base.link)
        let article = URL(string: "https://example.org/article")
        #expect(ChoreMapping.fields(of: ChoreSyncTask(task: task, articleLink: article), base: base).link == article)
    }

    @Test(
        "a completion taken back on another device is forgotten here whatever its fraction of a second; one made here since stays"
    )
    func forgetting() throws {
        let weekly = try Frequency(count: 1, unit: .week)
        let agreed = now
        let task = HouseholdTask(id: 1, name: "Bins", dueDate: now, frequency: weekly, createdAt: now)
        let earlier = now.addingTimeInterval(-86_400)
        let local = ChoreSyncTask(
            task: task, completions: [earlier.addingTimeInterval(0.25), agreed.addingTimeInterval(0.9995)])
        var base = ChoreMapping.fields(of: local, base: nil)
        #expect(base.completed == agreed)
        base.completed = agreed
        var theirs = base
        theirs.completed = earlier
        let result = ChoreMapping.task(theirs, current: local, base: base, articleID: nil, now: now)
        let range = try #require(result.forgetting)
        #expect(range.contains(agreed.addingTimeInterval(0.9995)))
        #expect(!range.contains(earlier.addingTimeInterval(0.25)))
        // A completion made here after the agreed one is newer: it is the one this device shares.
        let later = ChoreSyncTask(task: task, completions: [agreed, agreed.addingTimeInterval(3_600)])
        #expect(ChoreMapping.fields(of: later, base: base).completed == agreed.addingTimeInterval(3_600))
        #expect(
            ChoreMapping.task(theirs, current: later, base: base, articleID: nil, now: now).forgetting?.contains(
                agreed.addingTimeInterval(3_600)) == false)
    }
}
