import CalDAVTestSupport
import DefaultTransport
import Foundation
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

@testable import Chores

/// The collection check `task sync setup` makes, against a real Radicale: each way it can go
/// wrong gives one reason, and the password never travels where it should not.
@Suite("CalDAV collection check", .timeLimit(.minutes(10)))
struct CalDAVClientTests {
    static func client(_ server: CalDAVTestServer, _ url: URL, password: String? = nil) throws(CalDAVError)
        -> CalDAVClient
    {
        let credentials = CalDAVCredentials(user: server.user, password: password ?? server.password)
        return try CalDAVClient(collection: url, transport: makeDefaultTransport()) { credentials }
    }

    @Test(
        "a calendar that takes tasks passes, with its sync token; one that takes only events, an address book, a missing collection and a wrong password each fail with their reason"
    )
    func check() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let events = try server.makeCalendar("events", components: ["VEVENT"])
            let contacts = try server.makeAddressBook("contacts")
            let collection = try await Self.client(server, chores).checkCollection()
            #expect(collection.syncToken?.isEmpty == false)
            await #expect(throws: CalDAVError.noTodos(events)) {
                try await Self.client(server, events).checkCollection()
            }
            await #expect(throws: CalDAVError.notACalendar(contacts)) {
                try await Self.client(server, contacts).checkCollection()
            }
            let missing = server.base.appendingPathComponent("alice/nothing/")
            await #expect(throws: CalDAVError.notFound(missing)) {
                try await Self.client(server, missing).checkCollection()
            }
            await #expect(throws: CalDAVError.unauthorized(user: server.user)) {
                try await Self.client(server, chores, password: "wrong").checkCollection()
            }
        }
    }

    @Test("a password changed in ~/.netrc after a 401 is read again and the request retried once")
    func rereadAfter401() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let reads = Mutex(0)
            let client = try CalDAVClient(collection: chores, transport: makeDefaultTransport()) {
                // The first read is stale; every later one has the new password.
                let count = reads.withLock { value -> Int in
                    value += 1
                    return value
                }
                return CalDAVCredentials(user: server.user, password: count == 1 ? "stale" : server.password)
            }
            _ = try await client.checkCollection()
            #expect(reads.withLock { $0 } == 2)
        }
    }

    @Test("a server that is down is unreachable, with the reason")
    func serverDown() async throws {
        // A port nothing listens on: bound, then closed.
        let url = try #require(URL(string: "http://127.0.0.1:9/chores/"))
        let client = try CalDAVClient(collection: url, transport: makeDefaultTransport()) {
            CalDAVCredentials(user: "alice", password: "pw")
        }
        do {
            _ = try await client.checkCollection()
            Issue.record("reached a closed port")
        } catch {
            guard case .unreachable(let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(!reason.isEmpty && !reason.contains("pw"))
        }
    }

    /// A transport that records an issue for any request: the tests using it send none.
    static func refusingTransport() -> InMemoryTransport {
        InMemoryTransport { request throws(NetworkError) in
            Issue.record("sent \(request.method) \(request.url)")
            return HTTPResponse(status: 500, url: request.url)
        }
    }

    @Test("no request is made when the password would travel in clear text, or when there is none")
    func refusedBeforeSending() throws {
        let transport = Self.refusingTransport()
        let remote = try #require(URL(string: "http://dav.example.org/alice/chores/"))
        #expect(throws: CalDAVError.insecure(remote)) {
            try CalDAVClient(collection: remote, transport: transport) { CalDAVCredentials(user: "a", password: "b") }
        }
        let secure = try #require(URL(string: "https://dav.example.org/alice/chores/"))
        #expect(throws: CalDAVError.noPassword(user: nil, host: "dav.example.org")) {
            try CalDAVClient(collection: secure, transport: transport) { nil }
        }
        #expect(!CalDAVError.unauthorized(user: "alice").description.contains("b"))
    }

    @Test("a stored object's path belongs to the collection it lies below, and every path contains(_:) admits does")
    func storedPaths() throws {
        let transport = Self.refusingTransport()
        let url = try #require(URL(string: "https://dav.example.org/alice/chores/"))
        let client = try CalDAVClient(collection: url, transport: transport) {
            CalDAVCredentials(user: "a", password: "b")
        }
        #expect(client.holds(storedPath: "/alice/chores/6B29.ics"))
        #expect(!client.holds(storedPath: "/alice/chores/"))
        #expect(!client.holds(storedPath: "/alice/chores-old/6B29.ics"))
        #expect(!client.holds(storedPath: "/alice/groceries/6B29.ics"))
        #expect(client.contains("/alice/chores/a.ics") && client.contains("/alice/chores/sub/../c.ics"))
        for href in [
            "/alice/chores/a.ics", "/alice/chores/x%20y.ics", "https://dav.example.org/alice/chores/b.ics",
            "/alice/chores/sub/../c.ics",
        ] where client.contains(href) {
            #expect(client.holds(storedPath: DAVHref.path(of: href)), "\(href)")
        }
    }
}
