import CalDAVTestSupport
import Foundation
import Networking
import Testing

@testable import Chores

/// What a review of the sync found a server or a sequence of edits could do, each pinned.
@Suite("Chore sync: servers and sequences that once broke it", .timeLimit(.minutes(10)))
struct ChoreSyncReviewTests {
    @Test("a redirect is never followed: the write stops with one reason, after one request, and nothing is lost")
    func redirects() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            for target in ["/alice/other/x.ics", "http://other.example/alice/chores/x.ics"] {
                let transport = ShapedTransport { request, _ in request.method == .put ? .redirect(target) : .pass }
                let home = try ChoreHome(server, transport: transport)
                try await home.setUp(server, chores)
                _ = try await home.tasks.add(name: "Bins")
                let failure = try await #require(throws: ChoreSyncError.self) { try await home.sync.sync() }
                #expect("\(failure)".hasPrefix("the server redirects to "), "\(failure)")
                #expect(transport.requests.filter { $0.hasPrefix("PUT") }.count == 1, "\(transport.requests)")
                #expect(!transport.requests.contains { $0.contains("/alice/other") || $0.contains("other.example") })
                #expect(try await home.sync.status()?.pending == 1)
            }
        }
    }

    @Test("a URL with a password in it is refused at set-up, and the password is not repeated")
    func passwordInURL() async throws {
        try await withRadicale { server in
            let home = try ChoreHome(server)
            let url = try #require(URL(string: "http://alice:hunter2@127.0.0.1:1/alice/chores/"))
            let failure = try await #require(throws: ChoreSyncError.self) {
                try await home.sync.setUp(collection: url, user: nil)
            }
            #expect(!"\(failure)".contains("hunter2"))
            #expect(try await home.sync.status() == nil)
        }
    }

    @Test("the same collection set up with and without its final slash is one collection: nothing is sent twice")
    func finalSlash() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let bare = try #require(URL(string: String(chores.absoluteString.dropLast())))
            let home = try ChoreHome(server)
            try await home.sync.setUp(collection: bare, user: server.user)
            _ = try await home.tasks.add(name: "Bins")
            _ = try await home.sync.sync()
            try await home.sync.setUp(collection: chores, user: server.user)
            #expect(try await home.sync.sync() == ChoreSyncSummary())
            #expect(try await home.list().count == 1)
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 1)
        }
    }

    @Test("a write the server refuses for one chore (413) is reported and the others still go")
    func refusedAlone() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let transport = ShapedTransport { request, _ in
                request.method == .put && String(decoding: request.body ?? Data(), as: UTF8.self).contains("Huge")
                    ? .answer(413) : .pass
            }
            let home = try ChoreHome(server, transport: transport)
            try await home.setUp(server, chores)
            _ = try await home.tasks.add(name: "Huge")
            _ = try await home.tasks.add(name: "Bins")
            let summary = try await home.sync.sync()
            #expect(summary.sent == 1 && summary.problems.count == 1, "\(summary)")
            #expect(summary.problems.first?.reason.contains("413") == true)
            #expect(try await home.sync.status()?.pending == 1)
        }
    }

    @Test("a listing that cannot be read whole, or that the server cut short and cannot continue, deletes nothing")
    func partialListings() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            for name in ["Bins", "Dishes"] { _ = try await home.tasks.add(name: name) }
            _ = try await home.sync.sync()
            let hrefs = try await CalDAVClientTests.client(server, chores).members().map(\.href)
            func response(_ href: String, status: String = "HTTP/1.1 200 OK") -> String {
                "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>\"x\"</d:getetag></d:prop><d:status>\(status)</d:status></d:propstat></d:response>"
            }
            // Behind a proxy that prefixes every path: no member reads as one of the collection's.
            let prefixed = hrefs.map { response("/caldav" + $0) }.joined()
            let proxy = ShapedTransport { request, _ in
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                if request.method.rawValue == "REPORT", body.contains("sync-collection") { return .answer(501) }
                if request.method.rawValue == "PROPFIND" {
                    return .answerWith(
                        status: 207, body: "<d:multistatus xmlns:d=\"DAV:\">\(prefixed)</d:multistatus>")
                }
                return .pass
            }
            let behindProxy = try ChoreHome(server, transport: proxy, store: home.store)
            let proxied = try await behindProxy.sync.sync()
            #expect(proxied.deleted == 0 && proxied.problems.count == 2, "\(proxied)")
            // Cut short (507 on the collection itself) with a token the server then refuses.
            let truncated = """
                <d:multistatus xmlns:d="DAV:">\(response(hrefs[0]))<d:response><d:href>/alice/chores/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response><d:sync-token>http://radicale.org/ns/sync/unknown</d:sync-token></d:multistatus>
                """
            let cut = ShapedTransport { request, _ in
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                return request.method.rawValue == "REPORT" && body.contains("<d:sync-token></d:sync-token>")
                    ? .answerWith(status: 207, body: truncated) : .pass
            }
            let reset = try ChoreHome(server, transport: cut, store: home.store)
            try await reset.sync.setUp(collection: chores, user: server.user)
            let again = try await reset.sync.sync()
            #expect(again.deleted == 0, "\(again)")
            #expect(try await home.list().map(\.name).sorted() == ["Bins", "Dishes"])
        }
    }

    @Test("a chore moved to another href with its UID stays the same task: no deletion, no copy")
    func moved() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            let bins = try await home.tasks.add(name: "Bins")
            _ = try await home.sync.sync()
            let client = try CalDAVClientTests.client(server, chores)
            let old = try #require(try await client.fetch(try await client.members().map(\.href)).first)
            #expect(try await client.delete(at: old.href, ifMatch: old.etag) == .stored(etag: nil))
            let moved = try #require(old.icalendar).replacingOccurrences(
                of: "SUMMARY:Bins", with: "SUMMARY:Bins (moved)")
            guard case .stored = try await client.put(moved, at: "/alice/chores/renamed.ics", ifMatch: nil) else {
                Issue.record("Radicale refused the moved object")
                return
            }
            let summary = try await home.sync.sync()
            #expect(summary.deleted == 0 && summary.problems.isEmpty, "\(summary)")
            #expect(try await home.tasks.list(.all).map(\.id) == [bins.id])
            #expect(try await home.list().map(\.name) == ["Bins (moved)"])
            _ = try await home.tasks.edit(id: try #require(bins.id), note: .set("blue"))
            #expect(try await home.sync.sync().sent == 1)
            #expect(
                try await ChoreSyncTests.objects(server, "chores").compactMap {
                    $0.split(separator: "/").last.map(String.init)
                } == ["renamed.ics"])
        }
    }

    @Test("a recurring completion undone on one device is taken back on the other, and stays taken back")
    func undoneCompletion() async throws {
        try await withRadicale { server in
            let (a, b, _) = try await twoHomes(server)
            let plants = try await a.tasks.add(
                name: "Plants", due: ChoreObjectTests.day("2026-11-20"), frequency: try .every(3, .day))
            let id = try #require(plants.id)
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            _ = try await a.tasks.complete(id: id)
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            let onB = try #require(try await b.task("Plants").id)
            #expect(try await b.tasks.completions(id: onB).count == 1)
            _ = try await a.tasks.undo()
            for home in [a, b, a, b] { _ = try await home.sync.sync() }
            #expect(try await a.tasks.completions(id: id).isEmpty)
            #expect(try await b.tasks.completions(id: onB).isEmpty)
            #expect(try await a.task("Plants").dueDay == "2026-11-20")
            #expect(try await b.task("Plants").dueDay == "2026-11-20")
            #expect(try await a.sync.sync() == ChoreSyncSummary())
            #expect(try await b.sync.sync() == ChoreSyncSummary())
        }
    }

    @Test("task undo never takes back a change another device made since")
    func undoAfterTheirChange() async throws {
        try await withRadicale { server in
            let (a, b, _) = try await twoHomes(server)
            let bins = try await a.tasks.add(name: "Bins", due: ChoreObjectTests.day("2026-11-24"))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            _ = try await a.tasks.edit(id: try #require(bins.id), name: "Bins (green)")
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            _ = try await b.tasks.edit(
                id: try #require(try await b.task("Bins (green)").id), due: .set(ChoreObjectTests.day("2026-11-26")))
            _ = try await b.sync.sync()
            _ = try await a.sync.sync()
            _ = try? await a.tasks.undo()
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            #expect(try await b.task("Bins (green)").dueDay == "2026-11-26")
            #expect(try await a.task("Bins (green)").dueDay == "2026-11-26")
        }
    }

    @Test(
        "undoing the newer of two completions keeps the older on both homes, the other home having received both"
    )
    func undoneSecondCompletion() async throws {
        try await withRadicale { server in
            var clock = ChoreHome.now
            let ticking = ManagedClock(ChoreHome.now)
            let b = try ChoreHome(server, clock: { ticking.now })
            let (a, _, chores) = try await twoHomes(server)
            try await b.setUp(server, chores)
            let plants = try await b.tasks.add(
                name: "Plants", due: ChoreObjectTests.day("2026-11-20"), frequency: try .every(1, .day))
            let id = try #require(plants.id)
            _ = try await b.tasks.complete(id: id)
            clock = clock.addingTimeInterval(5)
            ticking.now = clock
            _ = try await b.tasks.complete(id: id)
            _ = try await b.sync.sync()
            _ = try await a.sync.sync()
            let onA = try #require(try await a.task("Plants").id)
            // The history travels: both completions, each once.
            #expect(try await a.tasks.completions(id: onA).count == 2)
            _ = try await b.tasks.undo()
            for home in [b, a, b, a] { _ = try await home.sync.sync() }
            #expect(try await b.tasks.completions(id: id).map(\.completedAt) == [ChoreHome.now])
            #expect(try await a.tasks.completions(id: onA).map(\.completedAt) == [ChoreHome.now])
            #expect(try await a.sync.sync() == ChoreSyncSummary())
            #expect(try await b.sync.sync() == ChoreSyncSummary())
        }
    }

    @Test("a chore removed here and kept because it changed there is one task, also after task undo")
    func keptThenUndone() async throws {
        try await withRadicale { server in
            let (a, b, _) = try await twoHomes(server)
            let bins = try await a.tasks.add(name: "Bins")
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            try await a.tasks.remove(id: try #require(bins.id))
            _ = try await b.tasks.edit(id: try #require(try await b.task("Bins").id), note: .set("blue"))
            _ = try await b.sync.sync()
            #expect(try await a.sync.sync().conflicts.count == 1)
            _ = try? await a.tasks.undo()
            for home in [a, b, a] { _ = try await home.sync.sync() }
            #expect(try await a.list().map(\.name) == ["Bins"])
            #expect(try await b.list().map(\.name) == ["Bins"])
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 1)
        }
    }

    @Test("a chore copied to a new name, synced, then deleted at the old one stays as the copy")
    func copiedThenDeleted() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            _ = try await home.tasks.add(name: "Bins")
            _ = try await home.sync.sync()
            let client = try CalDAVClientTests.client(server, chores)
            let old = try #require(try await client.fetch(try await client.members().map(\.href)).first)
            // Radicale refuses a second object with one UID in a collection, so the copy is
            // written behind its back, as a client syncing a folder would.
            let folder = server.storage.appendingPathComponent("collection-root/alice/chores")
            try Data(try #require(old.icalendar).utf8).write(to: folder.appendingPathComponent("copy.ics"))
            let first = try await home.sync.sync()
            #expect(first.problems.count == 1, "\(first)")
            #expect(try await client.delete(at: old.href, ifMatch: nil) == .stored(etag: nil))
            let second = try await home.sync.sync()
            #expect(second.deleted == 0, "\(second)")
            #expect(try await home.list().map(\.name) == ["Bins"])
        }
    }
}

/// A clock a test moves by hand.
final class ManagedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ start: Date) { value = start }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
