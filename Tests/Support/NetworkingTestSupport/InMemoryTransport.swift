public import Foundation
public import Networking
import Synchronization
import Testing

/// A transport for tests: replays scripted responses in order and records every request.
///
/// Each `Stub` answers the next request for its URL (or any URL when it names none) with a
/// status, headers and body, optionally after a delay, or with an error. A request nothing is
/// scripted for fails the test that sent it (`Issue.record`, naming the method and URL) and
/// throws `.transport`, so code that tolerates errors cannot hide a call the test did not
/// expect; a test that means a request to fail scripts the failure (`Stub(error:)`).
///
/// As an `HTTPStreaming` transport it answers from the same script, and hands a body its receiver
/// takes over in pieces of at most `streamPiece` bytes.
public final class InMemoryTransport: HTTPStreaming {
    /// The largest piece of a body `stream` hands its receiver at once.
    public static let streamPiece = 65_536

    /// One scripted answer.
    public struct Stub: Sendable {
        /// The URL it answers; `nil` answers any.
        public var url: URL?
        /// The status code.
        public var status: Int
        /// Header fields.
        public var headers: HTTPHeaders
        /// The body.
        public var body: Data
        /// How long to wait before answering.
        public var delay: Duration
        /// An error to fail with instead of answering.
        public var error: NetworkError?

        /// Creates a stub.
        public init(
            url: URL? = nil, status: Int = 200, headers: HTTPHeaders = [:], body: Data = Data(),
            delay: Duration = .zero, error: NetworkError? = nil
        ) {
            self.url = url
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.error = error
        }

        /// A 200 with a JSON body.
        public static func json(_ text: String, status: Int = 200, url: URL? = nil) -> Stub {
            Stub(url: url, status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }
    }

    private struct State {
        var stubs: [Stub] = []
        var requests: [HTTPRequest] = []
    }

    private let state = Mutex(State())
    private let handler: (@Sendable (HTTPRequest) async throws(NetworkError) -> HTTPResponse)?

    /// Creates a transport that answers from scripted stubs.
    public init(_ stubs: [Stub] = []) {
        handler = nil
        state.withLock { $0.stubs = stubs }
    }

    /// Creates a transport that answers every request with `handler` (for logic a script
    /// cannot express, such as a server that counts).
    public init(handler: @escaping @Sendable (HTTPRequest) async throws(NetworkError) -> HTTPResponse) {
        self.handler = handler
    }

    /// Scripts more answers.
    public func enqueue(_ stubs: Stub...) {
        state.withLock { $0.stubs.append(contentsOf: stubs) }
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// Answers with the next stub for the request's URL.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        state.withLock { $0.requests.append(request) }
        if let handler { return try await handler(request) }
        let stub = state.withLock { state -> Stub? in
            guard let index = state.stubs.firstIndex(where: { $0.url == nil || $0.url == request.url }) else {
                return nil
            }
            return state.stubs.remove(at: index)
        }
        guard let stub else {
            let call = "\(request.method.rawValue) \(request.url.absoluteString)"
            Issue.record("InMemoryTransport: nothing scripted for \(call)")
            throw .transport("nothing scripted for \(call)")
        }
        if stub.delay > .zero {
            do { try await Task.sleep(for: stub.delay) } catch { throw .cancelled }
        }
        if let error = stub.error { throw error }
        return HTTPResponse(status: stub.status, headers: stub.headers, body: stub.body, url: request.url)
    }

    /// Answers as `send` does; when `receiver` takes the response, its body goes to `receiver` in
    /// pieces and the response comes back without it.
    public func stream(_ request: HTTPRequest, to receiver: BodyReceiver) async throws(NetworkError) -> HTTPResponse {
        var response = try await send(request)
        guard try receiver.head(HTTPResponse(status: response.status, headers: response.headers, url: response.url))
        else { return response }
        let body = response.body
        response.body = Data()
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(start + Self.streamPiece, body.endIndex)
            do {
                try body[start..<end].withUnsafeBytes { bytes in try receiver.write(bytes) }
            } catch let error as NetworkError {
                throw error
            } catch {
                throw .transport("\(error)")
            }
            start = end
        }
        return response
    }
}
