import Foundation
import Models
import Testing

// The getting-started snippet of Sources/Models/Models.docc/Models.md, compiled and run.
// DocumentationTests (REPLTests) checks that the page shows this code verbatim.

/// Decodes a chore from the JSON a server sends and completes it at `completion`: a recurring
/// chore moves to its next occurrence, a one-off chore is done.
func completeChore(json: Data, at completion: Date, calendar: Calendar) throws -> HouseholdTask {
    let chore = try JSONCoding.decoder().decode(HouseholdTask.self, from: json)
    try chore.validate()
    return chore.completed(at: completion, calendar: calendar).task
}

@Suite("Models: getting started")
struct ModelsGettingStartedTests {
    let json = Data(
        """
        {"name": "Water the plants", "due_date": "2026-01-31T09:00:00Z",
         "frequency": {"count": 1, "unit": "month"}, "is_done": false,
         "created_at": "2026-01-01T08:00:00Z", "modified_at": "2026-01-01T08:00:00Z"}
        """.utf8)

    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return calendar
    }

    @Test("a monthly chore due on January 31 comes back on February 28, then March 31")
    func monthlyChoreKeepsTheMonthEnd() throws {
        let february = try completeChore(
            json: json, at: try #require(RFC3339.date(from: "2026-01-31T18:00:00Z")), calendar: calendar)
        #expect(february.dueDate == RFC3339.date(from: "2026-02-28T09:00:00Z"))
        #expect(!february.isDone)

        let encoded = try JSONCoding.encoder().encode(february)
        let march = try completeChore(
            json: encoded, at: try #require(RFC3339.date(from: "2026-02-28T10:00:00Z")), calendar: calendar)
        #expect(march.dueDate == RFC3339.date(from: "2026-03-31T09:00:00Z"))
    }

    @Test("a chore without a name is refused")
    func blankNameRefused() {
        let json = Data(
            #"{"name": " ", "is_done": false, "created_at": "2026-01-01T08:00:00Z", "modified_at": "2026-01-01T08:00:00Z"}"#
                .utf8)
        #expect(throws: ModelError.missingField("name")) {
            _ = try completeChore(json: json, at: Date(), calendar: calendar)
        }
    }
}
