import Foundation
import Networking
import Testing

/// How every network transport uses connections, checked against a real server on 127.0.0.1
/// that numbers its connections and counts the requests it is holding: requests to one host
/// reuse a connection, at most `maxConnectionsPerHost` exchanges with one host run at once, and a
/// request waiting for its turn can be cancelled.
@Suite("Transport connections", .serialized, .timeLimit(.minutes(5)))
struct ConnectionTests {
    /// What `/held/<group>` reports.
    struct Held: Decodable {
        var requests: Int
        var peak: Int
        var connections: Int
    }

    @Test("sequential requests to one host go over one connection", arguments: TransportKind.available)
    func sequentialRequestsReuseAConnection(kind: TransportKind) async throws {
        try await withTestServer { base in
            let transport = kind.make()
            var connections: [String] = []
            for _ in 0..<6 {
                let response = try await transport.send(HTTPRequest(url: base.appendingPathComponent("connection")))
                #expect(response.status == 200)
                connections.append(String(decoding: response.body, as: UTF8.self))
            }
            #expect(Set(connections).count == 1, "connections used: \(connections)")
        }
    }

    @Test(
        "a reused connection carries each request as sent: method, headers and body do not leak into the next",
        arguments: TransportKind.available)
    func reuseKeepsRequestsApart(kind: TransportKind) async throws {
        try await withTestServer { base in
            let transport = kind.make()
            let echo = base.appendingPathComponent("echo")
            let posted = try await transport.send(
                HTTPRequest(method: .post, url: echo, headers: ["X-First": "1"], body: Data("first body".utf8)))
            let first = try JSONDecoder().decode(EchoedRequest.self, from: posted.body)
            #expect(first.method == "POST" && first.body == "first body" && first.headers["x-first"] == "1")
            let fetched = try await transport.send(HTTPRequest(url: echo))
            let second = try JSONDecoder().decode(EchoedRequest.self, from: fetched.body)
            #expect(second.method == "GET" && second.body.isEmpty && second.headers["x-first"] == nil)
            let head = try await transport.send(HTTPRequest(method: .head, url: base.appendingPathComponent("small")))
            #expect(head.status == 200 && head.body.isEmpty)
            let small = try await transport.send(HTTPRequest(url: base.appendingPathComponent("small")))
            #expect(small.body == Data("ok".utf8))
            let missing = try await transport.send(HTTPRequest(url: base.appendingPathComponent("status/404")))
            #expect(missing.status == 404 && missing.body == Data("status 404".utf8))
            var connections = Set<String>()
            for _ in 0..<2 {
                let response = try await transport.send(HTTPRequest(url: base.appendingPathComponent("connection")))
                connections.insert(String(decoding: response.body, as: UTF8.self))
            }
            #expect(connections.count == 1, "connections used: \(connections)")
        }
    }

    @Test(
        "at most maxConnectionsPerHost exchanges with one host run at once, over that many connections",
        arguments: TransportKind.available)
    func boundPerHost(kind: TransportKind) async throws {
        try await withTestServer { base in
            for limit in [2, 4] {
                let held = try await holdAtOnce(
                    8, want: limit, base: base, kind.make(TransportConfiguration(maxConnectionsPerHost: limit)))
                #expect(held.requests == 8)
                #expect(held.peak <= limit, "bound \(limit): \(held.peak) at once")
                #expect(held.connections <= limit, "bound \(limit): \(held.connections) connections")
                // Not vacuous: a larger bound lets more run at once.
                if limit > 2 { #expect(held.peak > 2, "bound \(limit): \(held.peak) at once") }
            }
        }
    }

    @Test("the default bound is 2 connections per host", arguments: TransportKind.available)
    func defaultBound(kind: TransportKind) async throws {
        #expect(TransportConfiguration().maxConnectionsPerHost == 2)
        try await withTestServer { base in
            let held = try await holdAtOnce(6, want: 2, base: base, kind.make())
            #expect(held.requests == 6 && held.peak <= 2 && held.connections <= 2)
        }
    }

    @Test(
        "a request waiting for a connection to its host stops at once when cancelled, and never reaches the server",
        arguments: TransportKind.available)
    func cancelWhileWaiting(kind: TransportKind) async throws {
        try await withTestServer { base in
            let hang = UUID().uuidString
            let waiting = UUID().uuidString
            let transport = kind.make(TransportConfiguration(timeout: 60, maxConnectionsPerHost: 1))
            let hosts = try #require(hostLimiter(of: transport))
            let origin = HostLimiter.origin(of: base)
            let (waits, waited) = AsyncStream.makeStream(of: String.self)
            hosts.observeWaits { waited.yield($0) }
            let holder = Task {
                try await transport.send(HTTPRequest(url: base.appendingPathComponent("hang/\(hang)/600")))
            }
            #expect(try await probe(base, "arrived/\(hang)") == "yes")
            let waiter = Task {
                try await transport.send(HTTPRequest(url: base.appendingPathComponent("landing/\(waiting)")))
            }
            // Cancelled once it waits in the host's queue, behind the holder.
            var queued = waits.makeAsyncIterator()
            #expect(await queued.next() == origin)
            waiter.cancel()
            let error = await networkError { try await waiter.value }
            #expect(error == .cancelled)
            // The holder is never answered (600 s; the transport gives up on it after 60 s), and
            // it still holds the host's one slot: the waiter did not wait for it to finish (a
            // waiter that did would have taken the slot and given it back).
            #expect(hosts.running(for: origin) == 1, "the cancelled waiter returned only after the holder")
            holder.cancel()
            _ = await networkError { try await holder.value }
            // Neither the cancelled waiter nor the cancelled holder kept the host's one slot.
            let after = try await within(.seconds(60)) {
                try await transport.send(HTTPRequest(url: base.appendingPathComponent("small")))
            }
            #expect(after.body == Data("ok".utf8))
            #expect(try await probe(base, "landings/\(waiting)") == "0")
        }
    }

    @Test("the bound is per host: another host is not held up", arguments: TransportKind.available)
    func boundIsPerHost(kind: TransportKind) async throws {
        try await withTestServer { base in
            let hang = UUID().uuidString
            let transport = kind.make(TransportConfiguration(timeout: 60, maxConnectionsPerHost: 1))
            let holder = Task {
                try await transport.send(HTTPRequest(url: base.appendingPathComponent("hang/\(hang)")))
            }
            defer { holder.cancel() }
            #expect(try await probe(base, "arrived/\(hang)") == "yes")
            // The same server by another name: another origin to the transport.
            var other = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
            other.host = "localhost"
            let otherBase = try #require(other.url)
            let response = try await within(.seconds(60)) {
                try await transport.send(HTTPRequest(url: otherBase.appendingPathComponent("small")))
            }
            #expect(response.body == Data("ok".utf8))
        }
    }

    @Test("the origin a bound counts: scheme, host and port, whatever their case, with default ports")
    func origins() throws {
        func origin(_ text: String) throws -> String { HostLimiter.origin(of: try #require(URL(string: text))) }
        #expect(try origin("HTTP://Example.COM/a?b") == "http://example.com:80")
        #expect(try origin("http://example.com:80/other") == "http://example.com:80")
        #expect(try origin("https://example.com/feed") == "https://example.com:443")
        #expect(try origin("http://example.com:8080/feed") == "http://example.com:8080")
        #expect(try origin("https://example.com:80/") != origin("http://example.com/"))
    }

    /// Sends `count` requests to `/hold/<group>/300/<want>` at once through `transport`, and
    /// returns what the server saw (none is answered before `want` have run at once, or 20 s).
    func holdAtOnce(_ count: Int, want: Int, base: URL, _ transport: any HTTPTransport) async throws -> Held {
        let group = UUID().uuidString
        let url = base.appendingPathComponent("hold/\(group)/300/\(want)")
        try await withThrowingTaskGroup(of: HTTPResponse.self) { tasks in
            for _ in 0..<count {
                tasks.addTask { try await transport.send(HTTPRequest(url: url)) }
            }
            for try await response in tasks {
                #expect(response.status == 200)
            }
        }
        return try JSONDecoder().decode(Held.self, from: Data(try await probe(base, "held/\(group)").utf8))
    }

    /// What `body` returns, or `.cancelled` once `limit` has passed (so a request that waits
    /// forever fails the test instead of hanging it).
    func within(_ limit: Duration, _ body: @escaping @Sendable () async throws -> HTTPResponse) async throws
        -> HTTPResponse
    {
        let task = Task { try await body() }
        let watchdog = Task {
            try await Task.sleep(for: limit)
            task.cancel()
        }
        defer { watchdog.cancel() }
        return try await task.value
    }
}
