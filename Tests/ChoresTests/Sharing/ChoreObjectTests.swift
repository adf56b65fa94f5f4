import Foundation
import Models
import Testing

@testable import Chores

/// A chore as a VTODO: read from what other clients wrote, patched without losing any of it.
@Suite("Chores as VTODOs")
struct ChoreObjectTests {
    static func day(_ text: String) -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return utc.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
    }

    static func calendar(_ zone: String = "UTC") -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    static let now = Date(timeIntervalSince1970: 1_731_000_000)  // 2024-11-07T17:20:00Z

    static func object(_ fixture: String) throws -> ChoreObject {
        try ChoreObject(parsing: try ICalendarTests.text(fixture))
    }

    @Test("what Apple Reminders writes: a weekly chore due at 09:00 in Berlin is due on that day")
    func appleReminders() throws {
        let fields = try Self.object("apple-reminders.ics").fields(calendar: Self.calendar())
        #expect(fields.name == "Take out the bins")
        #expect(fields.note?.hasPrefix("Green bin on Tuesdays, blue bin every other week.\nPut them out") == true)
        #expect(fields.due == Self.day("2024-11-05"))
        #expect(fields.frequency == (try Frequency(count: 1, unit: .week)))
        #expect(!fields.isDone && fields.completed == nil && fields.link == nil)
    }

    @Test("what tasks.org writes: a chore every three days, due on a DATE")
    func tasksOrg() throws {
        let object = try Self.object("tasks-org.ics")
        #expect(object.uid == "1730455200123456789")
        let fields = try object.fields(calendar: Self.calendar())
        #expect(fields.note == "Kitchen and balcony, not the cactus")
        #expect(fields.due == Self.day("2024-11-06"))
        #expect(fields.frequency == (try Frequency(count: 3, unit: .day)))
    }

    @Test(
        "moving the due day keeps its time and zone, moves DTSTART and an alarm set at a time with it, and leaves every other line alone"
    )
    func moveDueKeepsTheRest() throws {
        let text = try ICalendarTests.text("apple-reminders.ics")
        var object = try ChoreObject(parsing: text)
        var fields = try object.fields(calendar: Self.calendar())
        fields.due = Self.day("2024-11-12")
        object.apply(fields, now: Self.now, calendar: Self.calendar())
        let before = text.components(separatedBy: "\r\n")
        let after = object.calendar.text.components(separatedBy: "\r\n")
        #expect(after.count == before.count)
        let changed = zip(before, after).filter { $0 != $1 }.map(\.1)
        #expect(
            changed == [
                "DTSTAMP:20241107T172000Z", "DUE;TZID=Europe/Berlin:20241112T090000",
                "DTSTART;TZID=Europe/Berlin:20241112T090000", "LAST-MODIFIED:20241107T172000Z",
                "TRIGGER;VALUE=DATE-TIME:20241112T080000Z",
            ])
        #expect(try ChoreObject(parsing: object.calendar.text).fields(calendar: Self.calendar()) == fields)
    }

    @Test("applying the fields the object already has changes nothing, not even its stamps")
    func noChangeNoStamp() throws {
        let text = try ICalendarTests.text("tasks-org.ics")
        var object = try ChoreObject(parsing: text)
        object.apply(try object.fields(calendar: Self.calendar()), now: Self.now, calendar: Self.calendar())
        #expect(object.calendar.text == text)
    }

    @Test("a new chore is a valid object that reads back as it was written")
    func newChore() throws {
        let fields = ChoreFields(
            name: "Descale the kettle; then rinse, twice", note: "Vinegar\nor citric acid", due: Self.day("2024-12-01"),
            frequency: try Frequency(count: 2, unit: .month), link: URL(string: "https://example.com/descale"))
        let object = ChoreObject(uid: "tidings-1", fields: fields, now: Self.now, calendar: Self.calendar())
        let text = object.calendar.text
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Tidings//Chores//EN\r\nBEGIN:VTODO\r\n"))
        #expect(text.contains("\r\nDUE;VALUE=DATE:20241201\r\n"))
        #expect(text.contains("\r\nRRULE:FREQ=MONTHLY;INTERVAL=2\r\n"))
        #expect(text.contains("\r\nSUMMARY:Descale the kettle\\; then rinse\\, twice\r\n"))
        let reread = try ChoreObject(parsing: text)
        #expect(reread.uid == "tidings-1")
        #expect(try reread.fields(calendar: Self.calendar()) == fields)
    }

    @Test("a one-off chore done and undone: STATUS, COMPLETED and PERCENT-COMPLETE follow")
    func oneOffDone() throws {
        var object = ChoreObject(
            uid: "o", fields: ChoreFields(name: "Fix the tap"), now: Self.now, calendar: Self.calendar())
        var fields = try object.fields(calendar: Self.calendar())
        fields.isDone = true
        fields.completed = Self.now
        object.apply(fields, now: Self.now, calendar: Self.calendar())
        #expect(object.calendar.text.contains("STATUS:COMPLETED\r\n"))
        #expect(object.calendar.text.contains("COMPLETED:20241107T172000Z\r\n"))
        #expect(try object.fields(calendar: Self.calendar()) == fields)
        fields.isDone = false
        fields.completed = nil
        object.apply(fields, now: Self.now, calendar: Self.calendar())
        #expect(object.calendar.text.contains("STATUS:NEEDS-ACTION\r\n"))
        #expect(!object.calendar.text.contains("\r\nCOMPLETED:") && !object.calendar.text.contains("PERCENT-COMPLETE"))
    }

    @Test("a recurring chore done: DUE moves on, the status stays open, the completion is kept")
    func recurringDone() throws {
        var object = try Self.object("tasks-org.ics")
        var fields = try object.fields(calendar: Self.calendar())
        fields.due = Self.day("2024-11-09")
        fields.completed = Self.now
        object.apply(fields, now: Self.now, calendar: Self.calendar())
        let text = object.calendar.text
        #expect(
            text.contains("\r\nDUE;VALUE=DATE:20241109\r\n") && text.contains("\r\nDTSTART;VALUE=DATE:20241109\r\n"))
        #expect(text.contains("\r\nSTATUS:NEEDS-ACTION\r\n") && !text.contains("STATUS:COMPLETED"))
        #expect(text.contains("\r\nX-TIDINGS-COMPLETED:20241107T172000Z\r\n"))
        #expect(try object.fields(calendar: Self.calendar()) == fields)
    }

    @Test(
        "a UTC due time is the day it falls on where the user is",
        arguments: [("UTC", "2024-11-05"), ("Europe/Athens", "2024-11-06"), ("America/Los_Angeles", "2024-11-05")])
    func utcDue(zone: String, expected: String) throws {
        let object = try ChoreObject(
            parsing:
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u\r\nSUMMARY:Late\r\nDUE:20241105T230000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        )
        #expect(try object.fields(calendar: Self.calendar(zone)).due == Self.day(expected))
    }

    @Test(
        "objects that are not chores Tidings can read are refused with the reason",
        arguments: [
            ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:e\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", "no VTODO"),
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "no UID"),
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "no SUMMARY"),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u\r\nSUMMARY:x\r\nDUE:2024-11-05\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                "DUE"
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u\r\nSUMMARY:x\r\nDUE:20241305\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                "DUE"
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u\r\nSUMMARY:x\r\nRRULE:FREQ=HOURLY\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                "RRULE"
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u\r\nSUMMARY:x\r\nRRULE:FREQ=DAILY;INTERVAL=0\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                "RRULE"
            ),
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u\r\n", "never ends"),
        ])
    func refused(text: String, reason: String) {
        do {
            let object = try ChoreObject(parsing: text)
            let fields = try object.fields(calendar: Self.calendar())
            Issue.record("read \(fields)")
        } catch {
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    @Test(
        "a SEQUENCE at the largest integer (or not a number) is left as it is when the chore changes, instead of overflowing"
    )
    func largestSequence() throws {
        for sequence in ["9223372036854775807", "-4", "lots"] {
            var object = try ChoreObject(
                parsing:
                    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:s\r\nSUMMARY:Bins\r\nSEQUENCE:\(sequence)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            )
            var fields = try object.fields(calendar: Self.calendar())
            fields.name = "Bins and more"
            object.apply(fields, now: Self.now, calendar: Self.calendar())
            #expect(object.calendar.text.contains("SEQUENCE:\(sequence)\r\n"))
            #expect(try object.fields(calendar: Self.calendar()).name == "Bins and more")
        }
    }
}
