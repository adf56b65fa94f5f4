import CalDAVTestSupport
import Foundation
import Models
import Testing

@testable import Chores

/// Sub-chores (`RELATED-TO`) shared between homes and with other clients.
@Suite("Chore steps through CalDAV", .timeLimit(.minutes(10)))
struct ChoreStepsTests {
    static func todo(uid: String, summary: String, related: String? = nil) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tasks.org//android//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20261120T100000Z", "SUMMARY:\(summary)",
        ]
        if let related { lines.append("RELATED-TO:\(related)") }
        lines += ["RELATED-TO;RELTYPE=SIBLING:other-\(uid)", "END:VTODO", "END:VCALENDAR", ""]
        return lines.joined(separator: "\r\n")
    }

    @Test("RELATED-TO without RELTYPE or with PARENT is the parent; a sibling one stays when the parent changes")
    func object() throws {
        var object = try ChoreObject(parsing: Self.todo(uid: "c", summary: "Buy candles", related: "p"))
        var fields = try object.fields(calendar: ChoreHome.utc)
        #expect(fields.parentUID == "p")
        fields.parentUID = "q"
        object.apply(fields, now: ChoreHome.now, calendar: ChoreHome.utc)
        let lines = ChoreSyncFailureTests.unfolded(object.calendar.text).filter { $0.hasPrefix("RELATED-TO") }
        #expect(lines == ["RELATED-TO;RELTYPE=SIBLING:other-c", "RELATED-TO:q"])
        let parent = try ChoreObject(
            parsing: Self.todo(uid: "c", summary: "x").replacingOccurrences(
                of: "RELATED-TO;RELTYPE=SIBLING", with: "RELATED-TO;RELTYPE=PARENT"))
        #expect(try parent.fields(calendar: ChoreHome.utc).parentUID == "other-c")
    }

    @Test("a step made here is a step on the other home and for python-caldav; unhooked there, unhooked here")
    func sharedBetweenHomes() async throws {
        try await withCalDAVServer(.radicale) { server in
            let (a, b, _) = try await twoHomes(server)
            let party = try await a.tasks.add(name: "Party")
            _ = try await a.tasks.add(
                name: "Candles", details: TaskDetailChanges(parentID: .set(try #require(party.id))))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            let partyB = try await b.task("Party")
            #expect(try await b.task("Candles").parentID == partyB.id)
            let listed =
                try JSONSerialization.jsonObject(
                    with: Data(try ChoreSyncPeerTests.peer(server, ["list"]).utf8)) as? [[String: Any]] ?? []
            let candles = try #require(listed.first { $0["summary"] as? String == "Candles" })
            let partyUID = try #require(listed.first { $0["summary"] as? String == "Party" }?["uid"] as? String)
            #expect(candles["related_to"] as? String == partyUID)
            _ = try await b.tasks.edit(
                id: try #require(try await b.task("Candles").id), details: .init(parentID: .clear))
            _ = try await b.sync.sync()
            _ = try await a.sync.sync()
            #expect(try await a.task("Candles").parentID == nil)
            #expect(try await a.sync.sync() == ChoreSyncSummary())
        }
    }

    @Test(
        "a step that arrives before its parent becomes its step when the parent comes; one whose parent never does keeps RELATED-TO"
    )
    func parentLater() async throws {
        try await withCalDAVServer(.radicale) { server in
            let chores = try server.makeCalendar("chores")
            let client = try CalDAVClientTests.client(server, chores)
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            for (uid, text) in [
                ("c1", Self.todo(uid: "c1", summary: "Candles", related: "p1")),
                ("c2", Self.todo(uid: "c2", summary: "Orphan", related: "gone")),
            ] {
                guard case .stored = try await client.put(text, at: client.href(forUID: uid), ifMatch: nil) else {
                    Issue.record("the server refused \(uid)")
                    return
                }
            }
            _ = try await home.sync.sync()
            #expect(try await home.task("Candles").parentID == nil)
            guard
                case .stored = try await client.put(
                    Self.todo(uid: "p1", summary: "Party"), at: client.href(forUID: "p1"), ifMatch: nil)
            else {
                Issue.record("the server refused the parent")
                return
            }
            _ = try await home.sync.sync()
            #expect(try await home.task("Candles").parentID == (try await home.task("Party").id))
            // The orphan's parent is not here: an edit here keeps its RELATED-TO on the server.
            _ = try await home.tasks.edit(id: try #require(try await home.task("Orphan").id), name: "Orphan step")
            #expect(try await home.sync.sync().sent == 1)
            let orphan = try #require(try await client.fetch([client.href(forUID: "c2")]).first?.icalendar)
            #expect(orphan.contains("RELATED-TO:gone") && orphan.contains("SUMMARY:Orphan step"), "\(orphan)")
            #expect(try await home.sync.sync() == ChoreSyncSummary())
        }
    }
}
