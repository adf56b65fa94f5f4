import Foundation
import Networking
import Testing

/// The limits every network transport enforces, checked against a real server on 127.0.0.1 for
/// each transport: the body cap while the body arrives, the timeout, and cancellation. The
/// server records what happened on its side (bytes it could send, whether the client hung up),
/// so a transport that only reports the right error after the fact still fails.
@Suite("Transport limits", .serialized)
struct TransportLimitsTests {
    /// What `/endless/<id>` can send (at most about 100 MB/s): far more than socket buffers hold.
    static let endlessStreamSize = 512 * 1024 * 1024

    @Test(
        "an endless body is refused once it passes the cap, without being read to the end",
        arguments: TransportKind.available)
    func capStopsAnEndlessBody(kind: TransportKind) async throws {
        try await withTestServer { base in
            let id = UUID().uuidString
            let transport = kind.make(TransportConfiguration(timeout: 60, maxBodySize: 1_000_000))
            let error = await networkError {
                try await transport.send(HTTPRequest(url: base.appendingPathComponent("endless/\(id)")))
            }
            #expect(error == .bodyTooLarge(limit: 1_000_000))
            // What the server could hand to the socket: the cap, what the transport read before it
            // stopped (curl: nothing more; URLSession on Linux: some milliseconds' worth), and the
            // loopback socket buffers (about 10 MB); a transport that reads on to the end lets the
            // server send all 512 MB.
            let sent = try #require(Int(try await probe(base, "sent/\(id)")))
            #expect(sent > 1_000_000)
            #expect(sent < Self.endlessStreamSize / 8, "the server sent \(sent) bytes")
        }
    }

    @Test(
        "a body larger than the cap is refused, with or without Content-Length, and a small one is not",
        arguments: TransportKind.available)
    func capWithAndWithoutLength(kind: TransportKind) async throws {
        try await withTestServer { base in
            for path in ["big", "bigstream"] {
                let error = await networkError {
                    try await kind.make(TransportConfiguration(maxBodySize: 1_000_000)).send(
                        HTTPRequest(url: base.appendingPathComponent(path)))
                }
                #expect(error == .bodyTooLarge(limit: 1_000_000), "\(path)")
            }
            // Under the default 10 MB cap the 11 MB and the streamed 13 MB bodies are refused too.
            for path in ["big", "bigstream"] {
                let error = await networkError {
                    try await kind.make().send(HTTPRequest(url: base.appendingPathComponent(path)))
                }
                #expect(error == .bodyTooLarge(limit: 10_000_000), "\(path)")
            }
            let small = try await kind.make().send(HTTPRequest(url: base.appendingPathComponent("small")))
            #expect(small.body == Data("ok".utf8))
        }
    }

    @Test("a body of exactly the cap is accepted, one byte more is not", arguments: TransportKind.available)
    func capBoundary(kind: TransportKind) async throws {
        try await withTestServer { base in
            let url = base.appendingPathComponent("bytes/1000")
            let exact = try await kind.make(TransportConfiguration(maxBodySize: 1000)).send(HTTPRequest(url: url))
            #expect(exact.body == Data(repeating: UInt8(ascii: "z"), count: 1000))
            let error = await networkError {
                try await kind.make(TransportConfiguration(maxBodySize: 999)).send(HTTPRequest(url: url))
            }
            #expect(error == .bodyTooLarge(limit: 999))
        }
    }

    @Test(
        "the cap counts decompressed bytes: 5 KB of gzip that unpacks to 5 MB passes a 1 MB cap no more",
        arguments: TransportKind.available)
    func capCountsDecompressedBytes(kind: TransportKind) async throws {
        try await withTestServer { base in
            let error = await networkError {
                try await kind.make(TransportConfiguration(maxBodySize: 1_000_000)).send(
                    HTTPRequest(url: base.appendingPathComponent("gzipbomb")))
            }
            #expect(error == .bodyTooLarge(limit: 1_000_000))
        }
    }

    @Test("a server that never answers times out, and the transport hangs up", arguments: TransportKind.available)
    func timeout(kind: TransportKind) async throws {
        try await withTestServer { base in
            let id = UUID().uuidString
            let error = await networkError {
                try await kind.make(TransportConfiguration(timeout: 1)).send(
                    HTTPRequest(method: .post, url: base.appendingPathComponent("hang/\(id)")))
            }
            #expect(error == .timedOut)
            let ending = try await probe(base, "hangstate/\(id)")
            #expect(ending == "closed")
        }
    }

    @Test("the request's own timeout wins over the configuration's", arguments: TransportKind.available)
    func requestTimeoutWins(kind: TransportKind) async throws {
        try await withTestServer { base in
            let id = UUID().uuidString
            // The server answers after 30 s: a transport that waits the configured 60 s gets an answer.
            let error = await networkError {
                try await kind.make(TransportConfiguration(timeout: 60)).send(
                    HTTPRequest(url: base.appendingPathComponent("hang/\(id)"), timeout: 1))
            }
            #expect(error == .timedOut)
            let ending = try await probe(base, "hangstate/\(id)")
            #expect(ending == "closed")
        }
    }

    @Test("cancelling the calling task stops a pending request with .cancelled", arguments: TransportKind.available)
    func cancellation(kind: TransportKind) async throws {
        try await withTestServer { base in
            let id = UUID().uuidString
            let transport = kind.make(TransportConfiguration(timeout: 60))
            let request = HTTPRequest(url: base.appendingPathComponent("hang/\(id)"))
            let task = Task { try await transport.send(request) }
            let arrived = try await probe(base, "arrived/\(id)")
            #expect(arrived == "yes")
            task.cancel()
            let error = await networkError { try await task.value }
            #expect(error == .cancelled)
            // The server's side: the connection was closed, not left waiting for its 30 s answer.
            let ending = try await probe(base, "hangstate/\(id)")
            #expect(ending == "closed")
        }
    }

    @Test("a task cancelled before sending sends nothing", arguments: TransportKind.available)
    func cancelledBeforeSending(kind: TransportKind) async throws {
        try await withTestServer { base in
            let id = UUID().uuidString
            let transport = kind.make()
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(HTTPRequest(url: base.appendingPathComponent("landing/\(id)")))
            }
            let error = await networkError { try await task.value }
            #expect(error == .cancelled)
            let landings = try await probe(base, "landings/\(id)")
            #expect(landings == "0")
        }
    }
}
