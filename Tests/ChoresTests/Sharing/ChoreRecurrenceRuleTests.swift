import Foundation
import Models
import Testing

@testable import Chores

/// A chore's `RRULE` with rule parts (`BYDAY`, `BYMONTHDAY`, `BYSETPOS`): read into the
/// frequency, written back canonical, and left as another client wrote it when it did not change.
@Suite("Chore recurrence rules")
struct ChoreRecurrenceRuleTests {
    static let utc = ChoreObjectTests.calendar()

    /// A VTODO due on 2026-11-30 with `lines` added.
    static func todo(_ lines: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Test//EN\r\nBEGIN:VTODO\r\nUID:u\r\n"
            + "DTSTAMP:20261101T000000Z\r\nSUMMARY:Bins\r\nDUE;VALUE=DATE:20261130\r\n"
            + "DTSTART;VALUE=DATE:20261130\r\n\(lines)END:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @Test("BYDAY, BYMONTHDAY and BYSETPOS are read into the frequency; UNTIL and WKST are not its business")
    func read() throws {
        for (rule, frequency) in [
            ("FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20271231T000000Z", "FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR"),
            ("FREQ=WEEKLY;WKST=SU;BYDAY=TU,TH", "FREQ=WEEKLY;INTERVAL=1;BYDAY=TU,TH"),
            (
                "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
                "FREQ=MONTHLY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"
            ),
            ("FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15"),
        ] {
            let fields = try ChoreObject(parsing: Self.todo("RRULE:\(rule)\r\n")).fields(calendar: Self.utc)
            #expect(fields.frequency == (try Frequency(rrule: frequency)), "\(rule)")
        }
    }

    @Test("a new chore writes its rule parts, and reads back the same frequency")
    func written() throws {
        let frequency = try Frequency(rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH,MO")
        let fields = ChoreFields(name: "Bins", due: ChoreObjectTests.day("2026-11-30"), frequency: frequency)
        let object = ChoreObject(uid: "tidings-1", fields: fields, now: ChoreObjectTests.now, calendar: Self.utc)
        #expect(object.calendar.text.contains("\r\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH\r\n"))
        #expect(try ChoreObject(parsing: object.calendar.text).fields(calendar: Self.utc).frequency == frequency)
    }

    @Test("an unchanged rule keeps the parts another client wrote; a changed one is rewritten canonical")
    func patched() throws {
        let text = Self.todo("RRULE:FREQ=WEEKLY;WKST=SU;BYDAY=TU,TH;UNTIL=20271231T000000Z\r\n")
        var object = try ChoreObject(parsing: text)
        var fields = try object.fields(calendar: Self.utc)
        object.apply(fields, now: ChoreObjectTests.now, calendar: Self.utc)
        #expect(object.calendar.text == text)
        fields.frequency = try Frequency(rrule: "FREQ=MONTHLY;BYDAY=-1FR")
        object.apply(fields, now: ChoreObjectTests.now, calendar: Self.utc)
        #expect(object.calendar.text.contains("\r\nRRULE:FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR\r\n"))
        #expect(!object.calendar.text.contains("WKST"))
    }

    @Test(
        "a malformed rule part makes the RRULE invalid",
        arguments: ["FREQ=WEEKLY;BYDAY=XX", "FREQ=MONTHLY;BYMONTHDAY=40"])
    func malformed(rule: String) throws {
        let object = try ChoreObject(parsing: Self.todo("RRULE:\(rule)\r\n"))
        #expect(throws: ChoreObjectError.invalid(property: "RRULE", value: rule)) {
            try object.fields(calendar: Self.utc)
        }
    }
}
