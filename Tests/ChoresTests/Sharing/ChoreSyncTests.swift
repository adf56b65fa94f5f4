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
