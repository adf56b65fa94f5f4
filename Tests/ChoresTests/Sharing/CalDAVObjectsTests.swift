import CalDAVTestSupport
import DefaultTransport
import Foundation
import Networking
import Testing

@testable import Chores

/// The WebDAV exchanges a sync is made of, against a real Radicale: changes since a token,
/// fetching objects, conditional writes and deletes.
@Suite("CalDAV objects", .timeLimit(.minutes(10)))
struct CalDAVObjectsTests {
    @Test(
        "create, change and delete an object conditionally; sync-collection reports each step; a stale ETag is a conflict"
    )
    func lifecycle() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let client = try CalDAVClientTests.client(server, chores)
            let first = try #require(try await client.changes(since: nil))
            #expect(first.changed.isEmpty && first.removed.isEmpty && first.token != nil)

            let fields = ChoreFields(name: "Bins", due: ChoreObjectTests.day("2024-11-05"))
            let object = ChoreObject(
                uid: "uid-1", fields: fields, now: ChoreObjectTests.now, calendar: ChoreObjectTests.calendar())
            let href = client.href(forUID: "uid-1")
            #expect(href == "/alice/chores/uid-1.ics")
            guard case .stored = try await client.put(object.calendar.text, at: href, ifMatch: nil) else {
                Issue.record("the first write was refused")
                return
            }
            // Creating again where something now is: a conflict, never an overwrite.
            #expect(try await client.put(object.calendar.text, at: href, ifMatch: nil) == .conflict)

            let second = try #require(try await client.changes(since: first.token))
            #expect(second.changed.map(\.href) == [href])
            let etag = try #require(second.changed.first?.etag)
            let fetched = try await client.fetch([href])
            #expect(fetched.map(\.href) == [href] && fetched.first?.etag == etag)
            let text = try #require(fetched.first?.icalendar)
            #expect(try ChoreObject(parsing: text).fields(calendar: ChoreObjectTests.calendar()) == fields)
            #expect(try await client.members().map(\.href) == [href])

            var changed = try ChoreObject(parsing: text)
            var renamed = fields
            renamed.name = "Bins and recycling"
            changed.apply(renamed, now: ChoreObjectTests.now, calendar: ChoreObjectTests.calendar())
            #expect(try await client.put(changed.calendar.text, at: href, ifMatch: "\"stale\"") == .conflict)
            guard case .stored = try await client.put(changed.calendar.text, at: href, ifMatch: etag) else {
                Issue.record("the change with the current ETag was refused")
                return
            }
            let third = try #require(try await client.changes(since: second.token))
            let newTag = try #require(third.changed.first?.etag)
            #expect(newTag != etag)

            #expect(try await client.delete(at: href, ifMatch: etag) == .conflict)
            #expect(try await client.delete(at: href, ifMatch: newTag) == .stored(etag: nil))
            let fourth = try #require(try await client.changes(since: third.token))
            #expect(fourth.removed == [href] && fourth.changed.isEmpty)
            // Gone already: removing it again is not an error.
            #expect(try await client.delete(at: href, ifMatch: nil) == .stored(etag: nil))
            #expect(try await client.fetch([href]).isEmpty)
        }
    }

    @Test("a token the server does not know means listing the members instead")
    func unknownToken() async throws {
        try await withRadicale { server in
            let client = try CalDAVClientTests.client(server, try server.makeCalendar("chores"))
            #expect(try await client.changes(since: "http://radicale.org/ns/sync/not-a-token") == nil)
        }
    }

    @Test(
        "an href outside the collection is refused before anything is sent, dot segments escaped or not, on another server however spelled"
    )
    func hrefOutsideTheCollection() async throws {
        try await withRadicale { server in
            let client = try CalDAVClientTests.client(server, try server.makeCalendar("chores"))
            for href in [
                "/alice/other/x.ics", "https://elsewhere.example/alice/chores/x.ics", "/alice/chores/../x.ics",
                "/alice/chores/%2E%2E/other/x.ics", "/alice/chores/..%2F..%2Fbob/x.ics",
                "/alice/chores/x/%2e./../y.ics",
                "/alice/chores", "/alice/chores%2Fx.ics",
                // Network-path references: the collection's path on another server.
                "//elsewhere.example/alice/chores/x.ics", "//127.0.0.1:1/alice/chores/x.ics",
                "//\(server.base.host ?? ""):\(server.base.port ?? 0)@elsewhere.example/alice/chores/x.ics",
                "https:/alice/chores/x.ics",
            ] {
                await #expect(throws: CalDAVError.malformed("the object \(href) is outside the collection")) {
                    try await client.delete(at: href, ifMatch: nil)
                }
            }
        }
    }
}
