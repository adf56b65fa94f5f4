import CalDAVTestSupport
import Foundation
import Testing

@testable import Chores

/// `DTSTART` on recurring chores (RFC 5545 3.8.5.3: the first instance of a recurrence set).
@Suite("Chores: DTSTART of a recurrence")
struct ChoreStartTests {
    static let utc = ChoreObjectTests.calendar()

    /// What python-caldav reads of a chore's dates.
    struct Read: Decodable {
        var due: String?
        var dtstart: String?
    }

    static func lines(_ object: ChoreObject, _ name: String) -> [String] {
        ChoreSyncFailureTests.unfolded(object.calendar.text).filter {
            $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";")
        }
    }

    @Test("a new recurring chore starts on its first due day, as a DATE like its DUE; a one-off chore has no DTSTART")
    func newChores() throws {
        let weekly = ChoreObject(
            uid: "w",
            fields: ChoreFields(name: "Bins", due: ChoreObjectTests.day("2026-11-24"), frequency: try .every(1, .week)),
            now: ChoreObjectTests.now, calendar: Self.utc)
        #expect(Self.lines(weekly, "DTSTART") == ["DTSTART;VALUE=DATE:20261124"])
        #expect(Self.lines(weekly, "DUE") == ["DUE;VALUE=DATE:20261124"])
        let once = ChoreObject(
            uid: "o", fields: ChoreFields(name: "Plumber", due: ChoreObjectTests.day("2026-11-24")),
            now: ChoreObjectTests.now, calendar: Self.utc)
        #expect(Self.lines(once, "DTSTART").isEmpty)
    }

    @Test(
        "a recurring chore without DTSTART (written by an older Tidings or another client) gets one in its DUE's form when DUE moves or it becomes recurring",
        arguments: [
            ("DUE;VALUE=DATE:20261124\r\nRRULE:FREQ=WEEKLY\r\n", "DTSTART;VALUE=DATE:20261201"),
            (
                "DUE;TZID=Europe/Berlin:20261124T090000\r\nRRULE:FREQ=WEEKLY\r\n",
                "DTSTART;TZID=Europe/Berlin:20261201T090000"
            ),
            ("DUE:20261124T090000Z\r\nRRULE:FREQ=WEEKLY\r\n", "DTSTART:20261201T090000Z"),
            ("DUE;VALUE=DATE:20261201\r\n", "DTSTART;VALUE=DATE:20261201"),
        ])
    func startAdded(lines: String, expected: String) throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:x\r\nDTSTAMP:20261101T090000Z\r\nSUMMARY:Bins\r\n"
            + lines + "END:VTODO\r\nEND:VCALENDAR\r\n"
        var object = try ChoreObject(parsing: text)
        var fields = try object.fields(calendar: Self.utc)
        fields.due = ChoreObjectTests.day("2026-12-01")
        fields.frequency = try .every(1, .week)
        object.apply(fields, now: ChoreObjectTests.now, calendar: Self.utc)
        #expect(Self.lines(object, "DTSTART") == [expected])
        #expect(try object.fields(calendar: Self.utc) == fields)
    }

    @Test(
        "a DTSTART that would follow the new DUE moves back to the due day in its own form; one before it moves with DUE"
    )
    func startNeverAfterDue() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:x\r\nDTSTAMP:20261101T090000Z\r\nSUMMARY:Bins\r\n"
            + "DTSTART;TZID=Europe/Berlin:20261130T080000\r\nDUE;VALUE=DATE:20261124\r\nRRULE:FREQ=WEEKLY\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        var object = try ChoreObject(parsing: text)
        var fields = try object.fields(calendar: Self.utc)
        fields.due = ChoreObjectTests.day("2026-11-26")
        object.apply(fields, now: ChoreObjectTests.now, calendar: Self.utc)
        #expect(Self.lines(object, "DTSTART") == ["DTSTART;TZID=Europe/Berlin:20261126T080000"])
        #expect(Self.lines(object, "DUE") == ["DUE;VALUE=DATE:20261126"])
    }

    @Test(
        "a recurring chore synced to Radicale carries DTSTART, python-caldav reads it, and a completion moves DTSTART with DUE"
    )
    func readBack() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            let bins = try await home.tasks.add(
                name: "Bins", due: ChoreObjectTests.day("2026-11-24"), frequency: try .every(1, .week))
            _ = try await home.sync.sync()
            let read = try JSONDecoder().decode(
                [Read].self, from: Data(try ChoreSyncPeerTests.peer(server, ["list"]).utf8))
            #expect(read.map(\.dtstart) == ["2026-11-24"])
            _ = try await home.tasks.complete(id: try #require(bins.id))
            _ = try await home.sync.sync()
            let again = try JSONDecoder().decode(
                [Read].self, from: Data(try ChoreSyncPeerTests.peer(server, ["list"]).utf8))
            #expect(again.map(\.due) == ["2026-12-01"] && again.map(\.dtstart) == ["2026-12-01"])
        }
    }
}
