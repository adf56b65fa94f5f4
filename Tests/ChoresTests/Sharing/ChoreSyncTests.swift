import CalDAVTestSupport
import DefaultTransport
import Feed
import Foundation
import Networking
import Testing

@testable import Chores

/// Two homes sharing their chores through one real Radicale.
@Suite("Chore sync: two homes", .timeLimit(.minutes(10)))
struct ChoreSyncTests {
    @Test(
        "a chore added on A appears on B with every field; a change on B reaches A; a sync with nothing new changes nothing",
        arguments: CalDAVTestServer.Kind.allCases)
    func addAndEdit(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let (a, b, _) = try await twoHomes(server)
            _ = try await a.tasks.add(
                name: "Take out the bins", note: "green one; then\nthe blue one",
                due: ChoreObjectTests.day("2026-11-24"),
                frequency: try .every(1, .week))
            _ = try await a.tasks.add(name: "Call the plumber, today")
            let first = try await a.sync.sync()
            #expect(first.sent == 2 && first.received == 0 && first.conflicts.isEmpty && first.problems.isEmpty)
            let received = try await b.sync.sync()
            #expect(received.received == 2 && received.sent == 0)
            #expect(try await b.list() == a.list())
            #expect(try await b.task("Take out the bins").anchorDate == (ChoreObjectTests.day("2026-11-24")))

            let bins = try await b.task("Take out the bins")
            _ = try await b.tasks.edit(
                id: try #require(bins.id), name: "Bins", note: .clear, due: .set(ChoreObjectTests.day("2026-11-26")),
                frequency: .set(try .every(2, .week)))
            #expect(try await b.sync.sync().sent == 1)
            #expect(try await a.sync.sync().received == 1)
            #expect(try await a.list() == b.list())
            #expect(
                try await a.list().contains(
                    .init(name: "Bins", note: nil, due: "2026-11-26", every: "every 2 weeks", done: false)))

            for home in [a, b] {
                let again = try await home.sync.sync()
                #expect(again.sent == 0 && again.received == 0 && again.deleted == 0, "\(again)")
            }
        }
    }

    @Test(
        "completing a recurring chore on B moves A to the next due date and A keeps the completion",
        arguments: CalDAVTestServer.Kind.allCases)
    func completeRecurring(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let (a, b, _) = try await twoHomes(server)
            let added = try await a.tasks.add(
                name: "Water the plants", due: ChoreObjectTests.day("2026-11-20"), frequency: try .every(3, .day))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            let onB = try await b.task("Water the plants")
            let done = try await b.tasks.complete(id: try #require(onB.id))
            #expect(done.dueDay == "2026-11-26")
            _ = try await b.sync.sync()
            #expect(try await a.sync.sync().received == 1)
            let onA = try await a.task("Water the plants")
            #expect(onA.dueDay == "2026-11-26" && !onA.isDone)
            // The rhythm still counts from the first due date, and the completion is recorded.
            #expect(onA.anchorDate == added.anchorDate)
            let completions = try await a.tasks.completions(id: try #require(onA.id))
            #expect(completions.map(\.completedAt) == [ChoreHome.now])
            #expect(completions.first?.dueDate == ChoreObjectTests.day("2026-11-20"))
            // Nothing goes back and forth afterwards.
            #expect(try await a.sync.sync() == ChoreSyncSummary())
            #expect(try await b.sync.sync() == ChoreSyncSummary())
            // A one-off chore done on A is done on B.
            let once = try await a.tasks.add(name: "Renew the passport")
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            _ = try await a.tasks.complete(id: try #require(once.id))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            #expect(try await b.task("Renew the passport").isDone)
        }
    }

    @Test(
        "edits on both sides while offline end in one merged chore, the conflict reported, nothing lost",
        arguments: CalDAVTestServer.Kind.allCases)
    func offlineEdits(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let (a, b, _) = try await twoHomes(server)
            _ = try await a.tasks.add(name: "Clean the gutters", due: ChoreObjectTests.day("2026-12-01"))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            // Offline: A changes the note and the name, B the due date and the name.
            let onA = try #require(try await a.task("Clean the gutters").id)
            let onB = try #require(try await b.task("Clean the gutters").id)
            _ = try await a.tasks.edit(id: onA, name: "Clean the gutters (front)", note: .set("ladder in the shed"))
            _ = try await b.tasks.edit(id: onB, name: "Gutters", due: .set(ChoreObjectTests.day("2026-12-05")))
            #expect(try await b.sync.sync().sent == 1)
            let merged = try await a.sync.sync()
            #expect(merged.conflicts.map(\.fields) == [["name"]])
            #expect(merged.conflicts.first?.task == "Clean the gutters (front)")
            // The change that lost is reported with its value: nothing is lost unseen.
            #expect(merged.conflicts.first?.discarded == ["name": "\"Clean the gutters (front)\""])
            #expect(
                merged.conflicts.first?.resolution.hasSuffix("this device had name \"Clean the gutters (front)\"")
                    == true)
            #expect(merged.sent == 1)
            _ = try await b.sync.sync()
            let expected = ChoreHome.Listed(
                name: "Gutters", note: "ladder in the shed", due: "2026-12-05", every: nil, done: false)
            #expect(try await a.list() == [expected])
            #expect(try await b.list() == [expected])
        }
    }

    @Test(
        "a chore deleted on A is gone on B; one deleted on A while B changed it comes back with B's change",
        arguments: CalDAVTestServer.Kind.allCases)
    func deletions(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let (a, b, _) = try await twoHomes(server)
            let bins = try await a.tasks.add(name: "Bins")
            let dishes = try await a.tasks.add(name: "Dishes")
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            try await a.tasks.remove(id: try #require(bins.id))
            #expect(try await a.sync.sync().deleted == 1)
            #expect(try await b.sync.sync().deleted == 1)
            #expect(try await b.list().map(\.name) == ["Dishes"])
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 1)

            // Deleted on A, changed on B meanwhile: B's change wins over the deletion.
            try await a.tasks.remove(id: try #require(dishes.id))
            _ = try await b.tasks.edit(id: try #require(try await b.task("Dishes").id), note: .set("and the pans"))
            _ = try await b.sync.sync()
            let back = try await a.sync.sync()
            #expect(back.conflicts.count == 1 && back.deleted == 0)
            #expect(try await a.list().map(\.note) == ["and the pans"])

            // Changed on A, deleted on B: kept and shared again.
            _ = try await a.tasks.edit(id: try #require(try await a.task("Dishes").id), name: "Dishes and pans")
            try await b.tasks.remove(id: try #require(try await b.task("Dishes").id))
            _ = try await b.sync.sync()
            let kept = try await a.sync.sync()
            #expect(kept.conflicts.count == 1 && kept.sent == 1)
            _ = try await b.sync.sync()
            #expect(try await b.list().map(\.name) == ["Dishes and pans"])
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 1)
        }
    }

    @Test(
        "a sync that loses the network at any request, before the server acts or after, resumes without duplicates or losses",
        arguments: [false, true])
    func interrupted(afterTheServerActed: Bool) async throws {
        try await withRadicale { server in
            // How many requests the whole sync makes, counted on a run that is not interrupted.
            var requests = 0
            for cut in 0... {
                let name = "chores-\(cut)"
                let chores = try server.makeCalendar(name)
                let transport = ShapedTransport()
                let (a, b) = (try ChoreHome(server, transport: transport), try ChoreHome(server))
                try await a.setUp(server, chores)
                try await b.setUp(server, chores)
                for name in ["Bins", "Dishes", "Laundry", "Plants"] { _ = try await a.tasks.add(name: name) }
                _ = try await a.sync.sync()
                _ = try await b.sync.sync()
                // There: one changed, one added, one deleted. Here: one changed, one added, one deleted.
                _ = try await b.tasks.edit(id: try #require(try await b.task("Bins").id), note: .set("blue"))
                _ = try await b.tasks.add(name: "Windows")
                try await b.tasks.remove(id: try #require(try await b.task("Plants").id))
                _ = try await b.sync.sync()
                _ = try await a.tasks.edit(
                    id: try #require(try await a.task("Dishes").id), due: .set(ChoreObjectTests.day("2026-11-30")))
                _ = try await a.tasks.add(name: "Oven")
                try await a.tasks.remove(id: try #require(try await a.task("Laundry").id))

                if cut == 0 {
                    transport.reset()
                    _ = try await a.sync.sync()
                    requests = transport.requests.count
                } else {
                    transport.reset { _, number in
                        number == cut ? (afterTheServerActed ? .loseAfter : .loseBefore) : .pass
                    }
                    await #expect(throws: ChoreSyncError.self, "request \(cut)") { try await a.sync.sync() }
                    transport.reset()
                    let resumed = try await a.sync.sync()
                    #expect(resumed.conflicts.isEmpty && resumed.problems.isEmpty, "request \(cut): \(resumed)")
                }
                _ = try await b.sync.sync()
                let expected: [ChoreHome.Listed] = [
                    .init(name: "Dishes", note: nil, due: "2026-11-30", every: nil, done: false),
                    .init(name: "Bins", note: "blue", due: nil, every: nil, done: false),
                    .init(name: "Oven", note: nil, due: nil, every: nil, done: false),
                    .init(name: "Windows", note: nil, due: nil, every: nil, done: false),
                ]
                #expect(try await a.list() == expected, "request \(cut)")
                #expect(try await b.list() == expected, "request \(cut)")
                #expect(try await ChoreSyncTests.objects(server, name).count == 4, "request \(cut)")
                #expect(try await a.sync.sync() == ChoreSyncSummary(), "request \(cut)")
                if cut >= requests { break }
            }
            // sync-collection, multiget of the two changed there, two PUTs and a DELETE.
            #expect(requests == 5)
        }
    }

    @Test(
        "a read-later chore carries its article's link as URL; a home that has the article links to it, one that has not keeps the link"
    )
    func readLater() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-later-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let feed = directory.appendingPathComponent("kitchen.xml")
            try Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel>
                  <title>Kitchen notes</title><link>https://example.com/</link>
                  <item><title>Sourdough starter</title><guid>1</guid><link>https://example.com/sourdough</link></item>
                  <item><title>Garlic confit</title><guid>2</guid></item>
                </channel></rss>
                """.utf8
            ).write(to: feed)
            let (a, b, c) = (try ChoreHome(server), try ChoreHome(server), try ChoreHome(server))
            var articles: [Int64] = []
            for home in [a, b] {
                let service = FeedService(
                    store: home.store, fetcher: HTTPFeedFetcher(transport: makeDefaultTransport()))
                let subscription = try await service.subscribe(url: feed)
                let stored = try await service.articles(matching: ArticleQuery(feedID: subscription.feed.id))
                articles.append(try #require(stored.first { $0.article.title == "Sourdough starter" }?.id))
            }
            for home in [a, b, c] { try await home.setUp(server, chores) }
            _ = try await a.tasks.add(name: "Read: Sourdough starter", articleID: articles[0])
            _ = try await a.sync.sync()
            let client = try CalDAVClientTests.client(server, chores)
            let objects = try await client.fetch(try await client.members().map(\.href))
            #expect(objects.first?.icalendar?.contains("URL:https://example.com/sourdough") == true)
            _ = try await b.sync.sync()
            #expect(try await b.task("Read: Sourdough starter").articleID == articles[1])
            _ = try await c.sync.sync()
            let unlinked = try await c.task("Read: Sourdough starter")
            #expect(unlinked.articleID == nil)
            // An edit there keeps the link on the server.
            _ = try await c.tasks.edit(id: try #require(unlinked.id), due: .set(ChoreObjectTests.day("2026-11-30")))
            #expect(try await c.sync.sync().sent == 1)
            let after = try await client.fetch(try await client.members().map(\.href))
            #expect(after.first?.icalendar?.contains("URL:https://example.com/sourdough") == true)
        }
    }

    @Test(
        "a chore removed and brought back with task undo keeps its object: no deletion goes out, no copy, and a change made there meanwhile arrives",
        arguments: CalDAVTestServer.Kind.allCases)
    func undoneRemoval(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let (a, b, _) = try await twoHomes(server)
            let bins = try await a.tasks.add(name: "Bins", due: ChoreObjectTests.day("2026-11-24"))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            try await a.tasks.remove(id: try #require(bins.id))
            _ = try await a.tasks.undo()
            _ = try await b.tasks.edit(id: try #require(try await b.task("Bins").id), note: .set("the blue one"))
            _ = try await b.sync.sync()
            let summary = try await a.sync.sync()
            #expect(summary.deleted == 0 && summary.sent == 0 && summary.conflicts.isEmpty, "\(summary)")
            #expect(
                try await a.list() == [
                    .init(name: "Bins", note: "the blue one", due: "2026-11-24", every: nil, done: false)
                ])
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 1)
            #expect(try await b.sync.sync() == ChoreSyncSummary())
        }
    }

    /// The hrefs of the objects the server lists in the collection `name` (a PROPFIND of its
    /// own, beside the sync's).
    static func objects(_ server: CalDAVTestServer, _ name: String) async throws -> [String] {
        let collection = server.base.appendingPathComponent("\(server.user)/\(name)/", isDirectory: true)
        return try await CalDAVClientTests.client(server, collection).members().map(\.href).sorted()
    }
}

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
                "/bob/chores/w.ics",
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
}
