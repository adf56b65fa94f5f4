import Foundation
import Models
import Testing

@Suite("HouseholdTask")
struct HouseholdTaskTests {
    let utc = calendar("UTC")

    @Test("a blank name fails validation and names the field", arguments: ["", "   ", "\n\t"])
    func blankNameIsInvalid(name: String) {
        let task = HouseholdTask(name: name, createdAt: Date(timeIntervalSince1970: 0))
        #expect(throws: ModelError.missingField("name")) { try task.validate() }
        #expect(ModelError.missingField("name").errorDescription == "name is required")
    }

    @Test(
        "a name with anything but blanks in it is valid, blanks around it included",
        arguments: ["Water the plants", "  Dust  ", "\tMop\n", "x", "🧹"])
    func namedTaskIsValid(name: String) {
        let task = HouseholdTask(name: name, createdAt: Date(timeIntervalSince1970: 0))
        #expect(throws: Never.self) { try task.validate() }
    }

    @Test("completing a one-off task marks it done and records the completion")
    func oneOffBecomesDone() {
        let due = date("2026-11-25", in: utc)
        let task = HouseholdTask(id: 4, name: "Call the plumber", dueDate: due, createdAt: date("2026-11-01", in: utc))
        let doneAt = date("2026-11-24T10:00", in: utc)
        let (next, completion) = task.completed(at: doneAt, calendar: utc)
        #expect(next.isDone)
        #expect(next.dueDate == due)
        #expect(next.modifiedAt == doneAt)
        #expect(completion == TaskCompletion(taskID: 4, dueDate: due, completedAt: doneAt))
    }

    @Test("completing a recurring task moves its due date and never marks it done")
    func recurringMovesForward() throws {
        let task = HouseholdTask(
            id: 1, name: "Take out the bins", dueDate: date("2026-11-23", in: utc),
            frequency: try Frequency(count: 1, unit: .week), createdAt: date("2026-11-01", in: utc))
        let (next, completion) = task.completed(at: date("2026-11-23T07:00", in: utc), calendar: utc)
        #expect(!next.isDone)
        #expect(next.dueDate == date("2026-11-30", in: utc))
        #expect(completion.dueDate == date("2026-11-23", in: utc))
    }

    @Test("a recurring task without a due date is anchored on the completion day")
    func recurringWithoutDueDate() throws {
        let task = HouseholdTask(
            name: "Clean the fridge", frequency: try Frequency(count: 2, unit: .week),
            createdAt: date("2026-11-01", in: utc))
        let (next, _) = task.completed(at: date("2026-11-22T15:00", in: utc), calendar: utc)
        #expect(next.dueDate == date("2026-12-06", in: utc))
    }

    @Test("round-trips through JSON with every field")
    func codableRoundTrip() throws {
        let task = HouseholdTask(
            id: 9, name: "Descale the kettle", note: "vinegar", dueDate: date("2026-12-01", in: utc),
            frequency: try Frequency(count: 3, unit: .month), articleID: 12,
            createdAt: date("2026-11-01T08:00", in: utc), modifiedAt: date("2026-11-02T08:00", in: utc))
        let data = try JSONCoding.encoder().encode(task)
        #expect(try JSONCoding.decoder().decode(HouseholdTask.self, from: data) == task)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""due_date":"2026-12-01T00:00:00Z""#))
        #expect(text.contains(#""frequency":{"count":3,"unit":"month"}"#))
    }
}
