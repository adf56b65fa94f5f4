import CalDAVTestSupport
import DefaultTransport
import Feed
import Foundation
import Networking
import Testing

@testable import Chores

/// What other clients wrote, and what goes wrong: servers, passwords, networks and objects.
@Suite("Chore sync: other clients and failures", .timeLimit(.minutes(10)))
struct ChoreSyncFailureTests {
    @Test(
        "VTODOs as Apple Reminders and tasks.org write them appear in the task list, and after a due-date edit everything but DUE, DTSTART and the change stamps is byte for byte as before",
        arguments: ["apple-reminders.ics", "tasks-org.ics"], CalDAVTestServer.Kind.allCases)
    func otherClients(fixture: String, _ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let chores = try server.makeCalendar("chores")
            let client = try CalDAVClientTests.client(server, chores)
            let text = try ICalendarTests.text(fixture)
            let uid = try ChoreObject(parsing: text).uid
            let href = client.href(forUID: uid)
            guard case .stored = try await client.put(text, at: href, ifMatch: nil) else {
                Issue.record("Radicale refused the fixture")
                return
            }
            let before = try #require(try await client.fetch([href]).first?.icalendar)
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            #expect(try await home.sync.sync().received == 1)
            let listed = try await home.list()
            let expected: ChoreHome.Listed =
                fixture == "tasks-org.ics"
                ? .init(
                    name: "Water the plants", note: "Kitchen and balcony, not the cactus", due: "2024-11-06",
                    every: "every 3 days", done: false)
                : .init(
                    name: "Take out the bins",
                    note:
                        "Green bin on Tuesdays, blue bin every other week.\nPut them out the evening before — the truck comes at six.",
                    due: "2024-11-05", every: "every week", done: false)
            #expect(listed == [expected])

            let task = try await home.task(expected.name)
            _ = try await home.tasks.edit(id: try #require(task.id), due: .set(ChoreObjectTests.day("2024-11-08")))
            #expect(try await home.sync.sync().sent == 1)
            let after = try #require(try await client.fetch([href]).first?.icalendar)
            // An alarm set at a time (Reminders') moves with the due day; one relative to it stays.
            let moved: Set = ["DUE", "DTSTART", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "TRIGGER"]
            func kept(_ text: String) -> [String] {
                ChoreSyncFailureTests.unfolded(text).filter { line in
                    !moved.contains(where: { line.hasPrefix($0 + ":") || line.hasPrefix($0 + ";") })
                }
            }
            #expect(kept(after) == kept(before))
            let triggers = Self.unfolded(after).filter { $0.hasPrefix("TRIGGER") }
            #expect(
                triggers == [
                    fixture == "tasks-org.ics"
                        ? Self.unfolded(before).first { $0.hasPrefix("TRIGGER") } ?? "?"
                        : "TRIGGER;VALUE=DATE-TIME:20241108T080000Z"
                ], "\(triggers)")
            let due = Self.unfolded(after).filter { $0.hasPrefix("DUE") }
            #expect(
                due == [
                    fixture == "tasks-org.ics" ? "DUE;VALUE=DATE:20241108" : "DUE;TZID=Europe/Berlin:20241108T090000"
                ])
        }
    }

    @Test(
        "a wrong password, a collection that is not a calendar, a server that is down and one out of space each give one clear reason and lose nothing"
    )
    func failures() async throws {
        let home = try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let book = try server.makeAddressBook("contacts")
            let home = try ChoreHome(server)
            await #expect(throws: ChoreSyncError.remote("\(book.absoluteString) is not a calendar collection")) {
                try await home.sync.setUp(collection: book, user: server.user)
            }
            await #expect(throws: ChoreSyncError.notSetUp) { try await home.sync.sync() }
            try await home.setUp(server, chores)
            _ = try await home.tasks.add(name: "Bins")

            let wrong = try ChoreHome(server, password: "wrong", store: home.store)
            await #expect(throws: ChoreSyncError.remote("the server refused the password of alice (HTTP 401)")) {
                try await wrong.sync.sync()
            }
            await #expect(throws: ChoreSyncError.remote("the server refused the password of alice (HTTP 401)")) {
                try await wrong.sync.setUp(collection: chores, user: server.user)
            }

            let full = ShapedTransport { request, _ in request.method == .put ? .answer(507) : .pass }
            let outOfSpace = try ChoreHome(server, transport: full, store: home.store)
            await #expect(
                throws: ChoreSyncError.remote(
                    "the server is out of space (HTTP 507); nothing was lost, try again later")
            ) { try await outOfSpace.sync.sync() }
            #expect(try await home.sync.status()?.pending == 1)
            #expect(try await home.sync.status()?.lastResult?.contains("out of space") == true)
            #expect(try await ChoreSyncTests.objects(server, "chores").isEmpty)

            // Each failure kept the chore to send: it goes now.
            #expect(try await home.sync.sync().sent == 1)
            _ = try await home.tasks.add(name: "Dishes")
            return home
        }
        // The server is gone now.
        let down = try await #require(throws: ChoreSyncError.self) { try await home.sync.sync() }
        #expect("\(down)".hasPrefix("cannot reach the server: "), "\(down)")
        #expect(try await home.list().map(\.name) == ["Bins", "Dishes"])
        #expect(try await home.sync.status()?.pending == 1)
    }

    @Test(
        "a server without sync-collection is synced by comparing ETags; with it, a sync with nothing changed is one request"
    )
    func requests() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let noSync = ShapedTransport { request, _ in
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                return request.method.rawValue == "REPORT" && body.contains("sync-collection") ? .answer(501) : .pass
            }
            let (a, b) = (try ChoreHome(server, transport: noSync), try ChoreHome(server))
            try await a.setUp(server, chores)
            try await b.setUp(server, chores)
            _ = try await b.tasks.add(name: "Bins", due: ChoreObjectTests.day("2026-11-24"))
            let dishes = try await b.tasks.add(name: "Dishes")
            _ = try await b.sync.sync()
            #expect(try await a.sync.sync().received == 2)
            _ = try await b.tasks.edit(id: try #require(dishes.id), note: .set("pans too"))
            try await b.tasks.remove(id: try #require(try await b.task("Bins").id))
            _ = try await a.tasks.add(name: "Laundry")
            _ = try await b.sync.sync()
            let fallback = try await a.sync.sync()
            #expect(fallback.received == 1 && fallback.deleted == 1 && fallback.sent == 1, "\(fallback)")
            _ = try await b.sync.sync()
            #expect(try await a.list() == b.list())
            #expect(try await a.list().map(\.name) == ["Dishes", "Laundry"])

            let counted = ShapedTransport()
            let c = try ChoreHome(server, transport: counted, store: b.store)
            _ = try await c.sync.sync()
            counted.reset()
            #expect(try await c.sync.sync() == ChoreSyncSummary())
            #expect(counted.requests == ["REPORT /alice/chores"])
        }
    }

    @Test("objects Tidings cannot read are reported by href and left alone; the others sync")
    func unreadable() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let client = try CalDAVClientTests.client(server, chores)
            func todo(_ uid: String, _ lines: String) -> String {
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20241101T090000Z\r\n"
                    + lines + "END:VTODO\r\nEND:VCALENDAR\r\n"
            }
            let objects = [
                ("no-summary", todo("no-summary", "DESCRIPTION:what?\r\n")),
                ("hourly", todo("hourly", "SUMMARY:Stretch\r\nDTSTART:20241101T090000Z\r\nRRULE:FREQ=HOURLY\r\n")),
                ("blank", todo("blank", "SUMMARY:\\n \r\n")),
                (
                    "huge",
                    todo("huge", "SUMMARY:Huge\r\nDESCRIPTION:" + String(repeating: "x", count: 1_100_000) + "\r\n")
                ),
                ("fine", todo("fine", "SUMMARY:Fine\r\n")),
            ]
            for (uid, text) in objects {
                guard case .stored = try await client.put(text, at: client.href(forUID: uid), ifMatch: nil) else {
                    Issue.record("Radicale refused \(uid)")
                    continue
                }
            }
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            let summary = try await home.sync.sync()
            #expect(summary.received == 1)
            #expect(summary.problems.count == 4, "\(summary.problems)")
            for uid in ["no-summary", "hourly", "blank", "huge"] {
                #expect(
                    summary.problems.contains { $0.href == "/alice/chores/\(uid).ics" && !$0.reason.isEmpty }, "\(uid)")
            }
            #expect(try await home.list().map(\.name) == ["Fine"])
            // Left alone: nothing was written back, and the next sync sends nothing.
            #expect(try await home.sync.sync().sent == 0)
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 5)
        }
    }

    /// The content lines of an iCalendar text, unfolded.
    static func unfolded(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .replacingOccurrences(of: "\n\t", with: "").split(separator: "\n").map(String.init)
    }

    @Test(
        "a listing that names objects outside the collection is not followed: each is reported, none is fetched or written, the others sync"
    )
    func hostileListing() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            try server.makeCalendar("other")
            let client = try CalDAVClientTests.client(server, chores)
            let fine =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:fine\r\nDTSTAMP:20241101T090000Z\r\nSUMMARY:Fine\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            _ = try await client.put(fine, at: "/alice/chores/fine.ics", ifMatch: nil)
            let elsewhere = [
                "/alice/other/x.ics", "/alice/chores/../other/y.ics", "http://evil.example/alice/chores/z.ics",
                "/bob/chores/w.ics", "//evil.example/alice/chores/v.ics",
            ]
            let responses = (elsewhere + ["/alice/chores/fine.ics"]).map {
                "<d:response><d:href>\($0)</d:href><d:propstat><d:prop><d:getetag>\"e\"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
            }.joined()
            let listing = """
                <?xml version="1.0" encoding="utf-8"?>
                <d:multistatus xmlns:d="DAV:">\(responses)<d:sync-token>http://radicale.org/ns/sync/1</d:sync-token></d:multistatus>
                """
            let hostile = ShapedTransport { request, _ in
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                return request.method.rawValue == "REPORT" && body.contains("sync-collection")
                    ? .answerWith(status: 207, body: listing) : .pass
            }
            let home = try ChoreHome(server, transport: hostile)
            try await home.setUp(server, chores)
            _ = try await home.tasks.add(name: "Mine")
            let summary = try await home.sync.sync()
            #expect(Set(summary.problems.map(\.href)) == Set(elsewhere), "\(summary.problems)")
            #expect(summary.received == 1 && summary.sent == 1)
            #expect(try await home.list().map(\.name).sorted() == ["Fine", "Mine"])
            for request in hostile.requests {
                #expect(request.hasSuffix("/alice/chores") || request.contains("/alice/chores/"), "\(request)")
            }
            let bodies = hostile.bodies.joined()
            #expect(!bodies.contains("/alice/other/") && !bodies.contains("evil.example") && !bodies.contains("/bob/"))
        }
    }

    @Test(
        "a server that cuts its report short without end is listed instead once a sync has taken its most members from the pages, memory bounded",
        .timeLimit(.minutes(3)))
    func endlessTruncation() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            // Every page: 40,000 members gone, the collection cut short (507), a new token.
            let removed = (0..<10_000).map {
                "<d:response><d:href>/alice/chores/gone-\($0).ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
            }.joined()
            let endless = ShapedTransport { request, sequence in
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                guard request.method.rawValue == "REPORT", body.contains("sync-collection") else { return .pass }
                return .answerWith(
                    status: 207,
                    body: """
                        <d:multistatus xmlns:d="DAV:">\(removed)<d:response><d:href>/alice/chores/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response><d:sync-token>http://radicale.org/ns/sync/cut-\(sequence)</d:sync-token></d:multistatus>
                        """)
            }
            let home = try ChoreHome(server, transport: endless)
            try await home.setUp(server, chores)
            _ = try await home.tasks.add(name: "Mine")
            let summary = try await home.sync.sync()
            #expect(summary.sent == 1, "\(summary)")
            let reports = endless.bodies.filter { $0.contains("sync-collection") }.count
            #expect(reports == ChoreSyncRun.maxListedChanges / 10_000 + 1, "\(reports) reports")
        }
    }
}
