import CalDAVTestSupport
import Foundation
import Networking
import Storage
import Store
import Testing

@testable import Chores

/// Servers that tag and name objects in their own ways (weak ETags, escaped hrefs), and a
/// removal that reached the server taken back with `task undo`.
@Suite("Chore sync: weak ETags, escaped hrefs, undo after a sync", .timeLimit(.minutes(10)))
struct ChoreSyncNamingTests {
    /// How a server in front of Radicale hands out weak ETags (`W/"x"`, in headers and in
    /// `getetag`) and judges `If-Match` strongly, as RFC 9110 §13.1.1 says: a weak tag there
    /// never matches.
    enum WeakServer: String, CaseIterable, CustomTestStringConvertible {
        /// Weakens the strong tags it still takes (a compressing proxy, Apache within the
        /// second of a change).
        case weakenedStrong
        /// Takes no `If-Match` at all: its tags are only ever weak.
        case onlyWeak

        var testDescription: String { rawValue }

        func action(_ request: HTTPRequest) -> ShapedTransport.Action {
            if let match = request.headers["If-Match"], match.hasPrefix("W/") || self == .onlyWeak {
                return .answer(412)
            }
            return .rewrite(request: { $0 }, response: Self.weaken)
        }

        static func weaken(_ response: HTTPResponse) -> HTTPResponse {
            var weak = response
            if let tag = weak.headers["ETag"], !tag.hasPrefix("W/") { weak.headers["ETag"] = "W/" + tag }
            let body = String(decoding: response.body, as: UTF8.self)
            weak.body = Data(body.replacing(/(getetag>)\s*"/) { "\($0.output.1)W/\"" }.utf8)
            return weak
        }
    }

    @Test(
        "with a server whose ETags are weak, changes, merges and deletions go out, a concurrent change is merged and never overwritten, and a sync with nothing new sends nothing",
        arguments: WeakServer.allCases)
    func weakETags(_ weak: WeakServer) async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let transport = ShapedTransport { request, _ in weak.action(request) }
            let a = try ChoreHome(server, transport: transport)
            let b = try ChoreHome(server)
            try await a.setUp(server, chores)
            try await b.setUp(server, chores)
            let bins = try await a.tasks.add(name: "Bins", due: ChoreObjectTests.day("2026-11-24"))
            let dishes = try await a.tasks.add(name: "Dishes")
            #expect(try await a.sync.sync().sent == 2)
            _ = try await b.sync.sync()

            // A change here goes out at the weak tag.
            _ = try await a.tasks.edit(id: try #require(bins.id), note: .set("the blue one"))
            let sent = try await a.sync.sync()
            #expect(sent.sent == 1 && sent.problems.isEmpty && sent.conflicts.isEmpty, "\(sent)")
            #expect(try await b.sync.sync().received == 1)
            #expect(try await b.task("Bins").note == "the blue one")

            // A change there since: merged, not overwritten.
            _ = try await b.tasks.edit(
                id: try #require(try await b.task("Bins").id), due: .set(ChoreObjectTests.day("2026-11-30")))
            _ = try await b.sync.sync()
            _ = try await a.tasks.edit(id: try #require(bins.id), name: "Bins out")
            let merged = try await a.sync.sync()
            #expect(merged.problems.isEmpty && merged.conflicts.isEmpty, "\(merged)")
            _ = try await b.sync.sync()
            for home in [a, b] {
                let task = try await home.task("Bins out")
                #expect(task.dueDay == "2026-11-30" && task.note == "the blue one")
            }

            // A deletion goes out at the weak tag.
            try await a.tasks.remove(id: try #require(dishes.id))
            #expect(try await a.sync.sync().deleted == 1)
            #expect(try await b.sync.sync().deleted == 1)
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 1)
            #expect(try await a.sync.sync() == ChoreSyncSummary())
            #expect(try await b.list() == a.list())
        }
    }

    /// Radicale names an object `x_2F_y.ics`; the server in front of it calls it `x%2Fy.ics`,
    /// a name holding an escaped slash, which it alone understands.
    static func escapedSlashes(_ request: HTTPRequest, _: Int) -> ShapedTransport.Action {
        .rewrite(
            request: { request in
                var inner = request
                let url = request.url.absoluteString.replacing(/%2[Ff]/, with: "_2F_")
                inner.url = URL(string: url) ?? request.url
                inner.body = request.body.map {
                    Data(String(decoding: $0, as: UTF8.self).replacing(/%2[Ff]/, with: "_2F_").utf8)
                }
                return inner
            },
            response: { response in
                var outer = response
                outer.body = Data(String(decoding: response.body, as: UTF8.self).replacing("_2F_", with: "%2F").utf8)
                return outer
            })
    }

    @Test(
        "objects whose names hold an escaped slash, a space, an @ or UTF-8 arrive, change and go at their own hrefs, however the server escapes them"
    )
    func escapedHrefs() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let direct = try CalDAVClientTests.client(server, chores)
            let names = ["x_2F_y.ics", "bins day@home.ics", "lüften.ics"]
            for (index, name) in names.enumerated() {
                let text = ChoreCancelledTests.todo("uid-\(index)", "SUMMARY:Chore \(index)\r\n")
                    .replacing("STATUS:CANCELLED", with: "STATUS:NEEDS-ACTION")
                #expect(try await direct.put(text, at: "/alice/chores/\(name)", ifMatch: nil) != .conflict)
            }
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 3)
            let home = try ChoreHome(server, transport: ShapedTransport(Self.escapedSlashes))
            try await home.setUp(server, chores)
            let received = try await home.sync.sync()
            #expect(received.received == 3 && received.problems.isEmpty, "\(received)")

            for index in names.indices {
                _ = try await home.tasks.edit(
                    id: try #require(try await home.task("Chore \(index)").id), note: .set("note \(index)"))
            }
            let sent = try await home.sync.sync()
            #expect(sent.sent == 3 && sent.problems.isEmpty && sent.conflicts.isEmpty, "\(sent)")
            for (index, name) in names.enumerated() {
                let text = try await direct.fetch(["/alice/chores/\(name)"]).first?.icalendar
                #expect(text?.contains("DESCRIPTION:note \(index)") == true, "\(name)")
            }
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 3)
            #expect(try await home.sync.sync() == ChoreSyncSummary())

            try await home.tasks.remove(id: try #require(try await home.task("Chore 0").id))
            #expect(try await home.sync.sync().deleted == 1)
            #expect(try await direct.fetch(["/alice/chores/x_2F_y.ics"]).isEmpty)
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 2)
        }
    }

    @Test(
        "a removal that reached the server, taken back with task undo, brings the chore back as the same object: its href, its UID and what other clients wrote in it",
        arguments: CalDAVTestServer.Kind.allCases)
    func undoAfterSync(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let (a, b, chores) = try await twoHomes(server)
            let direct = try CalDAVClientTests.client(server, chores)
            let bins = try await a.tasks.add(name: "Bins", due: ChoreObjectTests.day("2026-11-24"))
            _ = try await a.sync.sync()
            // Another client adds what Tidings does not show.
            let object = try #require(try await direct.fetch(try await ChoreSyncTests.objects(server, "chores")).first)
            let text = try #require(object.icalendar)
            let theirs = text.replacing("END:VTODO", with: "CATEGORIES:Outside\r\nX-OTHER-CLIENT:kept\r\nEND:VTODO")
            #expect(try await direct.put(theirs, at: object.href, ifMatch: object.etag) != .conflict)
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()

            try await a.tasks.remove(id: try #require(bins.id))
            #expect(try await a.sync.sync().deleted == 1)
            #expect(try await ChoreSyncTests.objects(server, "chores").isEmpty)
            #expect(try await b.sync.sync().deleted == 1)

            _ = try await a.tasks.undo()
            #expect(try await a.sync.sync().sent == 1)
            let back = try await direct.fetch(try await ChoreSyncTests.objects(server, "chores"))
            #expect(back.count == 1)
            #expect(back.first.map { DAVHref.path(of: $0.href) } == DAVHref.path(of: object.href))
            let backText = try #require(back.first?.icalendar)
            #expect(try ChoreObject(parsing: backText).uid == (try ChoreObject(parsing: text).uid))
            #expect(backText.contains("X-OTHER-CLIENT:kept") && backText.contains("CATEGORIES:Outside"))
            #expect(try await b.sync.sync().received == 1)
            #expect(try await b.list() == a.list())
            #expect(try await a.sync.sync() == ChoreSyncSummary())
        }
    }

    @Test(
        "hrefs an earlier version stored decoded take the canonical form at the next sync: nothing is fetched again, duplicated or left behind"
    )
    func decodedHrefsFromEarlierVersions() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let direct = try CalDAVClientTests.client(server, chores)
            let text = ChoreCancelledTests.todo("uid-1", "SUMMARY:Bins\r\n")
                .replacing("STATUS:CANCELLED", with: "STATUS:NEEDS-ACTION")
            #expect(try await direct.put(text, at: "/alice/chores/bins day@home.ics", ifMatch: nil) != .conflict)
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            #expect(try await home.sync.sync().received == 1)
            // As the version before stored it: percent-decoded.
            let repository = home.store.choreSync
            var item = try #require(try await repository.items().first)
            #expect(item.href == "/alice/chores/bins%20day@home.ics")
            item.href = "/alice/chores/bins day@home.ics"
            try await repository.save([item])
            #expect(try await repository.items().map(\.href) == ["/alice/chores/bins day@home.ics"])

            _ = try await home.tasks.edit(id: try #require(try await home.task("Bins").id), note: .set("blue"))
            let sent = try await home.sync.sync()
            #expect(sent.sent == 1 && sent.received == 0 && sent.problems.isEmpty && sent.conflicts.isEmpty, "\(sent)")
            #expect(try await repository.items().map(\.href) == ["/alice/chores/bins%20day@home.ics"])
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 1)
            #expect(try await home.sync.sync() == ChoreSyncSummary())
        }
    }
}
