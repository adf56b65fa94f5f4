#if os(Linux)
    import CCurl
    import Foundation

    /// The network transport: libcurl, opened on the first request (see `CCurl`), with a timeout,
    /// no cache (caching is the caller's, through `APIClient.conditionalGet`), no automatic
    /// redirects (the client follows them so it can count them and report permanent moves),
    /// compressed bodies accepted, and a body size cap enforced while the body arrives.
    ///
    /// Connections are kept open between requests and reused (HTTP keep-alive), and at most
    /// `maxConnectionsPerHost` exchanges with one host run at a time: 2,500 feeds on one host
    /// cost a couple of connections (and, over https, TLS handshakes), not 2,500. DNS answers
    /// and TLS sessions are shared between the transport's connections.
    ///
    /// Why not `URLSession`: on Linux it is FoundationNetworking, which links libcurl and its forty
    /// dependencies into every process at start-up, doubling the start-up time of a command that
    /// fetches nothing. Each request runs on its own worker thread; cancelling the calling task
    /// stops it. Linux only (the `CCurl` target is built for Linux only); on Apple platforms
    /// `URLSessionTransport` (module `URLSessionNetworking`) is the network transport, and
    /// `makeDefaultTransport(configuration:)` (module `DefaultTransport`) picks the one for the
    /// platform.
    public final class CurlTransport: HTTPTransport {
        /// How many requests of this process, of any transport, are inside libcurl now. A
        /// process must not exit while one is: OpenSSL's exit-time cleanup would run under it.
        public static var activeRequests: Int { Int(tidings_http_active()) }

        /// The transport's limits (shared with `URLSessionTransport`).
        public typealias Configuration = TransportConfiguration

        /// How many idle libcurl handles (each with its connection to one host) are kept between
        /// requests, across all hosts; beyond that the least recently used is closed.
        static let keptConnections = 32

        let configuration: Configuration
        let client: CurlClient
        let hosts: HostLimiter
        /// The bound on exchanges per host (tests watch its queue).
        package var hostLimiter: HostLimiter { hosts }

        /// Creates a transport. libcurl is not loaded until the first request.
        public init(configuration: Configuration = Configuration()) {
            self.configuration = configuration
            client = CurlClient(keeping: Self.keptConnections)
            hosts = HostLimiter(limit: configuration.maxConnectionsPerHost)
        }

        /// Sends one request; redirects come back as 3xx responses. It waits (without holding a
        /// thread) while `maxConnectionsPerHost` exchanges with the URL's host are running.
        ///
        /// - Throws: `.unsupportedScheme` for a URL that is not http or https (libcurl is also
        ///   restricted to those two, so no other protocol can be reached by any path).
        public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
            if let scheme = NetworkError.unfetchableScheme(request.url) {
                throw .unsupportedScheme(scheme, request.url)
            }
            if let name = NetworkError.unsendableHeader(request) { throw .invalidHeader(name) }
            if Task.isCancelled { throw .cancelled }
            let origin = HostLimiter.origin(of: request.url)
            return try await hosts.withSlot(for: origin) { () async throws(NetworkError) -> HTTPResponse in
                try await exchange(request, origin: origin)
            }
        }

        /// Performs `request` on a worker thread, with a slot for its host already taken.
        private func exchange(_ request: HTTPRequest, origin: String) async throws(NetworkError) -> HTTPResponse {
            guard let clientPointer = client.pointer else { throw .transport("out of memory") }
            guard let handle = tidings_http_request_new() else { throw .transport("out of memory") }
            let exchange = Exchange(handle: handle, client: client, clientPointer: clientPointer, origin: origin)
            defer { tidings_http_request_free(handle) }
            let timeout = request.timeout ?? configuration.timeout
            let configuration = self.configuration
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>) in
                    Thread.detachNewThread {
                        continuation.resume(returning: exchange.perform(request, timeout: timeout, configuration))
                    }
                }
            } onCancel: {
                exchange.cancel()
            }
            return try result.get()
        }
    }

    /// The libcurl handles and caches a transport's requests share (`tidings_http_client`): freed,
    /// closing the connections kept open, when the transport and every running exchange are done
    /// with it. `@unchecked Sendable`: the C client locks its own state.
    final class CurlClient: @unchecked Sendable {
        /// `nil` when memory ran out.
        let pointer: OpaquePointer?

        init(keeping handles: Int) {
            pointer = tidings_http_client_new(handles)
        }

        deinit {
            if let pointer { tidings_http_client_free(pointer) }
        }
    }

    /// One request's libcurl handle. `@unchecked Sendable`: the handle is created before the worker
    /// thread starts and freed after it has finished; meanwhile the only call made from another
    /// thread is `tidings_http_cancel`, which sets an atomic flag. The exchange holds the client,
    /// so the client outlives it.
    struct Exchange: @unchecked Sendable {
        let handle: OpaquePointer
        let client: CurlClient
        let clientPointer: OpaquePointer
        let origin: String

        func cancel() { tidings_http_cancel(handle) }

        func perform(
            _ request: HTTPRequest, timeout: TimeInterval, _ configuration: CurlTransport.Configuration
        ) -> Result<HTTPResponse, NetworkError> {
            var result = tidings_http_result()
            let lines = request.headers.map { "\($0.key): \($0.value)" }
            let cLines = lines.map { strdup($0) }
            defer { for line in cLines { free(line) } }
            let pointers = cLines.map { UnsafePointer($0) }
            let body = request.body ?? Data()
            body.withUnsafeBytes { bytes in
                pointers.withUnsafeBufferPointer { headers in
                    tidings_http_perform(
                        clientPointer, handle, origin, request.method.rawValue, request.url.absoluteString,
                        headers.baseAddress, headers.count,
                        request.body == nil ? nil : bytes.baseAddress, bytes.count, Int(max(1, timeout * 1000)),
                        configuration.maxBodySize, configuration.userAgent, ProxyRoute.goesDirect(request) ? 1 : 0,
                        &result)
                }
            }
            defer { tidings_http_result_free(&result) }
            return Self.outcome(of: result, url: request.url, configuration)
        }

        /// What a finished exchange's result means: the response, or its failure.
        static func outcome(
            of result: tidings_http_result, url: URL, _ configuration: CurlTransport.Configuration
        ) -> Result<HTTPResponse, NetworkError> {
            let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            switch Int(result.failure) {
            case TIDINGS_HTTP_OK:
                let headerText =
                    result.headers.map {
                        String(decoding: UnsafeRawBufferPointer(start: $0, count: result.headers_length), as: UTF8.self)
                    } ?? ""
                let data = result.body.map { Data(bytes: $0, count: result.body_length) } ?? Data()
                return .success(HTTPResponse(status: result.status, headers: headers(headerText), body: data, url: url))
            case TIDINGS_HTTP_TIMED_OUT: return .failure(.timedOut)
            case TIDINGS_HTTP_CANCELLED: return .failure(.cancelled)
            case TIDINGS_HTTP_TOO_LARGE: return .failure(.bodyTooLarge(limit: configuration.maxBodySize))
            default: return .failure(.transport(message.isEmpty ? "the request failed" : message))
            }
        }

        /// The header block of a response as headers; repeated names are joined with ", ".
        static func headers(_ block: String) -> HTTPHeaders {
            var headers = HTTPHeaders()
            for line in block.split(whereSeparator: \.isNewline).dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            return headers
        }
    }
#endif
