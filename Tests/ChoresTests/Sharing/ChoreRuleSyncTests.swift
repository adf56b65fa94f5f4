import CalDAVTestSupport
import Foundation
import Models
import Testing

@testable import Chores

/// A chore whose `RRULE` has rule parts, written by another client, through a real sync.
@Suite("Chore sync: recurrence rules", .timeLimit(.minutes(10)))
struct ChoreRuleSyncTests {
    @Test(
        "a weekly chore on Tuesday and Thursday from another client keeps its BYDAY through syncs that change nothing")
    func foreignRuleSurvives() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let client = try CalDAVClientTests.client(server, chores)
            let text =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r\n"
                + "BEGIN:VTODO\r\nUID:bins-1\r\nDTSTAMP:20261101T090000Z\r\nSUMMARY:Bins\r\n"
                + "DTSTART;VALUE=DATE:20261201\r\nDUE;VALUE=DATE:20261201\r\n"
                + "RRULE:FREQ=WEEKLY;WKST=SU;BYDAY=TU,TH\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            let href = client.href(forUID: "bins-1")
            guard case .stored = try await client.put(text, at: href, ifMatch: nil) else {
                Issue.record("Radicale refused the chore")
                return
            }
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            #expect(try await home.sync.sync().received == 1)
            // The rule reads back whole from the task table, so the next sync sends nothing.
            #expect(try await home.list().first?.every == "every week on Tue, Thu")
            #expect(try await home.sync.sync().sent == 0)
            let after = try await client.fetch([href]).first?.icalendar ?? ""
            #expect(after.contains("RRULE:FREQ=WEEKLY;WKST=SU;BYDAY=TU,TH"), "\(after)")

        }
    }
}
