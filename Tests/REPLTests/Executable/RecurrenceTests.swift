import Foundation
import Models
import Testing

/// A chore with a recurrence rule, through the built binary (the real clock, in UTC).
@Suite("recurrence rules in the tidings executable", .serialized)
struct RecurrenceTests {
    @Test("task add --every 2 weeks on mon,thu is due on its day; task done moves it to the rule's next day")
    func everyTwoWeeksOnTwoDays() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        func tidings(_ commands: [String]) throws -> TidingsBinary.Result {
            try TidingsBinary.run(
                ["--home", home.path, "--json"] + commands.flatMap { ["-c", $0] }, environment: ["TZ": "UTC"])
        }
        let added = try tidings(["task add Bins --every 2 weeks on mon,thu --due 2026-11-30", "task list"])
        #expect(added.status == 0, "\(added.err)")
        let lines = added.out.split(separator: "\n").map(String.init)
        #expect(lines.first == #"{"id":1}"#)
        #expect(lines.last?.contains(#""due":"2026-11-30""#) == true, "\(added.out)")
        #expect(
            lines.last?.contains(
                #""every":{"count":2,"text":"every 2 weeks on Mon, Thu","unit":"week","weekdays":["MO","TH"]}"#)
                == true, "\(added.out)")

        let refused = try tidings(["task add Bins --every 2 weeks on mon,thu,funday"])
        #expect(refused.status == 1 && refused.err.contains(#""funday" is not a weekday"#), "\(refused.err)")

        let done = try tidings(["task done 1", "task list"])
        #expect(done.status == 0, "\(done.err)")
        // Done today: the next Monday or Thursday of every other week from Nov 30 after today (and
        // after Nov 30): Thursday Dec 3 while today is before it.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let due = try #require(utc.date(from: DateComponents(year: 2026, month: 11, day: 30)))
        let rule = try Frequency(rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH")
        let next = rule.nextDueDate(from: due, after: due, completedAt: utc.startOfDay(for: Date()), calendar: utc)
        if Date() < due { #expect(HouseholdTask.day(next) == "2026-12-03") }
        #expect(done.out.contains(#""due":"\#(HouseholdTask.day(next))""#), "\(done.out)")

    }
}
