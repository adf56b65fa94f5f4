import CalDAVTestSupport
import Foundation
import Networking
import Testing

@testable import Chores

/// How CalDAV servers differ, and Tidings syncing with each kind: a forgotten sync token,
/// recurrences, cancelled chores, weak ETags and unusual hrefs.
@Suite("Chore sync: servers that differ", .timeLimit(.minutes(10)))
struct ChoreSyncServersTests {
    /// How a server refuses a sync token it no longer knows.
    enum Refusal: String, CaseIterable, CustomTestStringConvertible {
        /// Radicale itself, its token store wiped (it answers 403 valid-sync-token).
        case radicaleForgets
        case status412, status409, status403
        /// Another 4xx whose body names the precondition.
        case status422NamingThePrecondition

        var testDescription: String { rawValue }

        /// The answer the test server gives in the real server's place.
        var action: ShapedTransport.Action? {
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>
                """
            switch self {
            case .radicaleForgets: return nil
            case .status412: return .answer(412)
            case .status409: return .answerWith(status: 409, body: body)
            case .status403: return .answer(403)
            case .status422NamingThePrecondition: return .answerWith(status: 422, body: body)
            }
        }
    }

    /// Whether `request` is a `sync-collection` REPORT that sends a token.
    static func asksWithToken(_ request: HTTPRequest) -> Bool {
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        return request.method.rawValue == "REPORT" && body.contains("sync-collection")
            && !body.contains("<d:sync-token></d:sync-token>")
    }

    @Test(
        "a server that refuses the sync token is listed whole: changes on both sides since arrive, nothing is lost, duplicated or sent twice, and the next sync is one request again",
        arguments: Refusal.allCases)
    func forgottenToken(_ refusal: Refusal) async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let transport = ShapedTransport()
            let a = try ChoreHome(server, transport: transport)
            let b = try ChoreHome(server)
            try await a.setUp(server, chores)
            try await b.setUp(server, chores)
            let bins = try await a.tasks.add(name: "Bins", due: ChoreObjectTests.day("2026-11-24"))
            _ = try await a.tasks.add(name: "Dishes")
            _ = try await a.tasks.add(name: "Windows")
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()

            // Given changes on both sides, and a server that no longer knows A's token.
            _ = try await a.tasks.edit(id: try #require(bins.id), note: .set("the blue one"))
            _ = try await a.tasks.add(name: "Laundry")
            try await b.tasks.remove(id: try #require(try await b.task("Dishes").id))
            _ = try await b.tasks.add(name: "Mop")
            _ = try await b.sync.sync()
            if let action = refusal.action {
                transport.reset { request, _ in Self.asksWithToken(request) ? action : .pass }
            } else {
                let cache = server.storage.appendingPathComponent(
                    "collection-root/\(server.user)/chores/.Radicale.cache/sync-token")
                try FileManager.default.removeItem(at: cache)
            }

            // When A syncs.
            let summary = try await a.sync.sync()

            // Then everything arrives once.
            #expect(
                summary.received == 1 && summary.deleted == 1 && summary.sent == 2 && summary.conflicts.isEmpty
                    && summary.problems.isEmpty, "\(summary)")
            #expect(try await a.list().map(\.name).sorted() == ["Bins", "Laundry", "Mop", "Windows"])
            #expect(try await ChoreSyncTests.objects(server, "chores").count == 4)
            #expect(try await b.sync.sync().received == 2)
            #expect(try await a.list() == b.list())

            // The new token works: a sync with nothing new is one request.
            transport.reset()
            #expect(try await a.sync.sync() == ChoreSyncSummary())
            #expect(transport.requests == ["REPORT /alice/chores"])
        }
    }
}

/// Chores another client cancelled (`STATUS:CANCELLED`).
@Suite("Chore sync: cancelled chores", .timeLimit(.minutes(10)))
struct ChoreCancelledTests {
    static func todo(_ uid: String, _ lines: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nDTSTAMP:20261101T090000Z\r\n"
            + lines + "STATUS:CANCELLED\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @Test(
        "a chore cancelled by another client is not open: hidden from the open list, in --all and --done as done (recurring ones too), and an edit here keeps STATUS:CANCELLED on the server"
    )
    func cancelled() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let client = try CalDAVClientTests.client(server, chores)
            let objects = [
                ("tap", Self.todo("tap", "SUMMARY:Fix the tap\r\n")),
                (
                    "bins",
                    Self.todo(
                        "bins",
                        "SUMMARY:Bins\r\nDUE;VALUE=DATE:20261124\r\nDTSTART;VALUE=DATE:20261124\r\nRRULE:FREQ=WEEKLY\r\n"
                    )
                ),
            ]
            for (uid, text) in objects {
                _ = try await client.put(text, at: client.href(forUID: uid), ifMatch: nil)
            }
            let home = try ChoreHome(server)
            try await home.setUp(server, chores)
            #expect(try await home.sync.sync().received == 2)
            #expect(try await home.tasks.list(.open).isEmpty)
            #expect(
                Set(try await home.tasks.list(.all).map { "\($0.name) \($0.isDone)" }) == [
                    "Fix the tap true", "Bins true",
                ])
            #expect(Set(try await home.tasks.list(.done).map(\.name)) == ["Fix the tap", "Bins"])

            _ = try await home.tasks.edit(id: try #require(try await home.task("Fix the tap").id), note: .set("washer"))
            _ = try await home.tasks.edit(id: try #require(try await home.task("Bins").id), note: .set("blue"))
            #expect(try await home.tasks.list(.open).isEmpty)
            #expect(try await home.sync.sync().sent == 2)
            #expect(try await home.sync.sync() == ChoreSyncSummary())
            for uid in ["tap", "bins"] {
                let text = try #require(try await client.fetch([client.href(forUID: uid)]).first?.icalendar)
                let status = ChoreSyncFailureTests.unfolded(text).filter { $0.hasPrefix("STATUS") }
                #expect(status == ["STATUS:CANCELLED"], "\(uid)")
            }
            #expect(
                try await client.fetch([client.href(forUID: "tap")]).first?.icalendar?.contains("DESCRIPTION:washer")
                    == true)

            // Reopened here: open there too.
            _ = try await home.tasks.edit(
                id: try #require(try await home.task("Fix the tap").id), frequency: .set(try .every(1, .week)))
            #expect(try await home.tasks.list(.open).map(\.name) == ["Fix the tap"])
            #expect(try await home.sync.sync().sent == 1)
            let reopened = try #require(try await client.fetch([client.href(forUID: "tap")]).first?.icalendar)
            #expect(
                ChoreSyncFailureTests.unfolded(reopened).filter { $0.hasPrefix("STATUS") } == ["STATUS:NEEDS-ACTION"])
        }
    }
}
