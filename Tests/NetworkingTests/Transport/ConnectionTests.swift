import Foundation
import Networking
import Testing

/// How every network transport uses connections, checked against a real server on 127.0.0.1
/// that numbers its connections: requests to one host reuse a connection.
@Suite("Transport connections", .serialized)
struct ConnectionTests {
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
}
