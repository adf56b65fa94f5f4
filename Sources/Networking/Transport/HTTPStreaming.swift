/// A transport that hands a response's body over as it arrives instead of holding it: for
/// bodies larger than memory should hold (a podcast episode of 200 MB), which `send` refuses past
/// the configuration's `maxBodySize`. Implementations: `CurlTransport`, and the tests'
/// `InMemoryTransport`. `FileDownloader` builds resumable downloads on it.
public protocol HTTPStreaming: HTTPTransport {
    /// Sends `request` as a GET, one hop (a 3xx comes back as the response, as from `send`), and
    /// gives its body to `receiver` once `receiver.head` has taken the response. The body is
    /// passed on as the server stored it: no `Accept-Encoding` is sent, so byte ranges count the
    /// bytes of the file.
    ///
    /// `request.timeout` (else the configuration's) bounds the connection and every silence:
    /// the transfer as a whole may take as long as bytes keep arriving.
    ///
    /// - Returns: the response; its body is empty when `receiver` took it, else the body as
    ///   `send` would return it (capped at `maxBodySize`).
    /// - Throws: what `send` throws (`.cancelled` within about a second of the calling task's
    ///   cancellation, whatever the server does), and what `receiver` throws.
    func stream(_ request: HTTPRequest, to receiver: BodyReceiver) async throws(NetworkError) -> HTTPResponse
}

/// What takes a streamed body: two closures the transport calls from its own thread, one call
/// at a time, in order, while `stream` runs.
public struct BodyReceiver: Sendable {
    /// Called once with the response (status and headers, an empty body) before any byte of its
    /// body: `true` has the body go to `write`, `false` keeps it in the response (a redirect, an
    /// error page). Throwing stops the exchange, and `stream` throws that error.
    public var head: @Sendable (HTTPResponse) throws(NetworkError) -> Bool
    /// Called with each piece of the body, in order. Throwing stops the exchange, and `stream`
    /// throws that error.
    public var write: @Sendable (UnsafeRawBufferPointer) throws(NetworkError) -> Void

    public init(
        head: @escaping @Sendable (HTTPResponse) throws(NetworkError) -> Bool,
        write: @escaping @Sendable (UnsafeRawBufferPointer) throws(NetworkError) -> Void
    ) {
        self.head = head
        self.write = write
    }
}
