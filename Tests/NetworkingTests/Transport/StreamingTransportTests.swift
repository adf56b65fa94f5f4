import DefaultTransport
import Foundation
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

/// What a streaming transport does with a body, against the loopback test server: the body goes
/// to the receiver in order and not into the response, a body the receiver declines stays in the
/// response, a receiver's error stops the exchange, no compression is asked for, silences time
/// out and a cancellation stops it.
@Suite(
    "Streaming transport", .serialized,
    .enabled(if: makeDefaultStreamingTransport() != nil, "no streaming transport on this platform"))
struct StreamingTransportTests {
    /// The bytes a receiver was given, and the heads it saw.
    final class Received: Sendable {
        private let state = Mutex<(heads: [Int], body: Data)>(([], Data()))
        var heads: [Int] { state.withLock { $0.heads } }
        var body: Data { state.withLock { $0.body } }

        func receiver(taking: @escaping @Sendable (HTTPResponse) -> Bool = { $0.isSuccess }) -> BodyReceiver {
            BodyReceiver(
                head: { response in
                    self.state.withLock { $0.heads.append(response.status) }
                    return taking(response)
                },
                write: { bytes in self.state.withLock { $0.body.append(contentsOf: bytes) } })
        }
    }

    func transport(_ configuration: TransportConfiguration = TransportConfiguration()) throws -> any HTTPStreaming {
        try #require(makeDefaultStreamingTransport(configuration: configuration))
    }

    @Test("a body larger than the cap streams to the receiver whole, in order, and not into the response")
    func streamsPastTheCap() async throws {
        try await withTestServer { base in
            let received = Received()
            let response = try await transport(TransportConfiguration(maxBodySize: 1_000_000)).stream(
                HTTPRequest(url: base.appendingPathComponent("bigstream")), to: received.receiver())
            #expect(response.status == 200 && response.body.isEmpty)
            #expect(received.heads == [200])
            #expect(received.body == Data(repeating: UInt8(ascii: "y"), count: 200 * 65536))
        }
    }

    @Test("a head the receiver declines keeps its body in the response: an error page, a redirect")
    func declinedBodies() async throws {
        try await withTestServer { base in
            let received = Received()
            let missing = try await transport().stream(
                HTTPRequest(url: base.appendingPathComponent("status/404")), to: received.receiver())
            #expect(missing.status == 404 && missing.body == Data("status 404".utf8))
            let moved = try await transport().stream(
                HTTPRequest(url: base.appendingPathComponent("redirect/1")), to: received.receiver())
            #expect(moved.status == 302 && moved.headers["Location"] == "/redirect/0")
            #expect(received.heads == [404, 302] && received.body.isEmpty)
        }
    }

    @Test("a receiver's error stops the exchange and is what stream throws, from the head or the body")
    func receiverErrors() async throws {
        try await withTestServer { base in
            let url = base.appendingPathComponent("bigstream")
            let fromHead = BodyReceiver(
                head: { _ throws(NetworkError) in throw NetworkError.unexpectedRange("test") }, write: { _ in })
            await #expect(throws: NetworkError.unexpectedRange("test")) {
                try await transport().stream(HTTPRequest(url: url), to: fromHead)
            }
            let fromBody = BodyReceiver(
                head: { _ in true },
                write: { _ throws(NetworkError) in throw NetworkError.file(path: "/x", reason: "full") })
            await #expect(throws: NetworkError.file(path: "/x", reason: "full")) {
                try await transport().stream(HTTPRequest(url: url), to: fromBody)
            }
        }
    }

    @Test("no Accept-Encoding is sent (byte ranges count stored bytes), and other schemes are refused")
    func identityAndSchemes() async throws {
        try await withTestServer { base in
            let received = Received()
            _ = try await transport().stream(
                HTTPRequest(url: base.appendingPathComponent("echo")), to: received.receiver())
            let seen = try #require(try JSONSerialization.jsonObject(with: received.body) as? [String: Any])
            let headers = try #require(seen["headers"] as? [String: String])
            #expect(headers["accept-encoding"] == nil)
            let file = try #require(URL(string: "file:///etc/passwd"))
            await #expect(throws: NetworkError.unsupportedScheme("file", file)) {
                try await transport().stream(HTTPRequest(url: file), to: received.receiver())
            }
        }
    }

    @Test("a silence longer than the timeout is .timedOut; a cancellation stops a held transfer with .cancelled")
    func silencesAndCancellation() async throws {
        try await withTestServer { base in
            await #expect(throws: NetworkError.timedOut) {
                try await transport().stream(
                    HTTPRequest(url: base.appendingPathComponent("hang/\(UUID())/20"), timeout: 1),
                    to: Received().receiver())
            }
            let id = UUID().uuidString
            let streaming = try transport(TransportConfiguration(timeout: 120))
            let task = Task {
                try await streaming.stream(
                    HTTPRequest(url: base.appendingPathComponent("hang/\(id)")), to: Received().receiver())
            }
            #expect(try await probe(base, "arrived/\(id)") == "yes")
            task.cancel()
            await #expect(throws: NetworkError.cancelled) { try await task.value }
            #expect(try await probe(base, "hangstate/\(id)") == "closed")
        }
    }
}
