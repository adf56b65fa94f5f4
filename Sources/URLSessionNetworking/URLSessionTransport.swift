import Foundation
public import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network transport through Foundation's `URLSession`, with `CurlTransport`'s contract:
/// only http and https, no redirects followed (a 3xx comes back as the response, so the client
/// can count redirects and report permanent moves), no cache and no cookies (caching is the
/// caller's, through `APIClient.conditionalGet`), compressed bodies accepted and returned decompressed, a body size cap
/// enforced while the body arrives, a timeout for the whole exchange, cancellation of the
/// calling task stopping the request, connections reused, and at most `maxConnectionsPerHost`
/// exchanges with one host at a time.
///
/// The default transport on Apple platforms. On Linux it works too, but `URLSession` is
/// FoundationNetworking there, which loads libcurl and its forty dependencies at start-up: a
/// program that wants to start fast uses `CurlTransport` instead (see
/// `makeDefaultTransport(configuration:)`).
public final class URLSessionTransport: HTTPTransport {
    /// The transport's limits (shared with `CurlTransport`).
    public typealias Configuration = TransportConfiguration

    private let configuration: Configuration
    private let session: URLSession
    /// The session for requests that `ProxyRoute` sends directly: it names no proxy at all,
    /// so neither the system's proxy settings nor the environment's apply.
    private let directSession: URLSession
    private let exchanges: SessionDelegate
    private let hosts: HostLimiter
    /// The bound on exchanges per host (tests watch its queue).
    package var hostLimiter: HostLimiter { hosts }

    /// Creates a transport with its own ephemeral session.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let settings = URLSessionConfiguration.ephemeral
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.httpCookieStorage = nil
        settings.httpCookieAcceptPolicy = .never
        settings.httpShouldSetCookies = false
        // Each request carries its own timeout, and `send` enforces it for the whole exchange;
        // the session's own limit on silences must not cut a longer request short.
        settings.timeoutIntervalForRequest = max(configuration.timeout, 86_400)
        // The session's connection pool; `hosts` keeps the exchanges to the same bound, so a
        // request waiting for a connection does so before its deadline starts, as with
        // CurlTransport.
        settings.httpMaximumConnectionsPerHost = max(1, configuration.maxConnectionsPerHost)
        hosts = HostLimiter(limit: configuration.maxConnectionsPerHost)
        exchanges = SessionDelegate()
        session = URLSession(configuration: settings, delegate: exchanges, delegateQueue: nil)
        let direct = settings.copy() as? URLSessionConfiguration ?? settings
        direct.connectionProxyDictionary = [:]
        directSession = URLSession(configuration: direct, delegate: exchanges, delegateQueue: nil)
    }

    deinit {
        // The session holds its delegate until it is invalidated.
        session.finishTasksAndInvalidate()
        directSession.finishTasksAndInvalidate()
    }

    /// Sends one request; redirects come back as 3xx responses. It waits (without holding a
    /// thread) while `maxConnectionsPerHost` exchanges with the URL's host are running.
    ///
    /// - Throws: `.unsupportedScheme` for a URL that is not http or https, before anything is
    ///   sent; `.timedOut` when the exchange takes longer than `request.timeout` (else the
    ///   configuration's timeout); `.bodyTooLarge` as soon as the body passes the cap;
    ///   `.cancelled` when the calling task is cancelled; `.transport` when no response came.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        if let scheme = NetworkError.unfetchableScheme(request.url) {
            throw .unsupportedScheme(scheme, request.url)
        }
        if let name = NetworkError.unsendableHeader(request) { throw .invalidHeader(name) }
        if Task.isCancelled { throw .cancelled }
        return try await hosts.withSlot(for: HostLimiter.origin(of: request.url)) {
            () async throws(NetworkError) -> HTTPResponse in
            try await exchange(request)
        }
    }

    /// Performs `request`, with a slot for its host already taken.
    private func exchange(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        let timeout = max(0.001, request.timeout ?? configuration.timeout)
        let task = (ProxyRoute.goesDirect(request) ? directSession : session).dataTask(
            with: urlRequest(for: request, timeout: timeout))
        let exchange = SessionExchange(url: request.url, maxBodySize: configuration.maxBodySize)
        exchanges.register(exchange, for: task)
        // The whole exchange's deadline (URLSession's own timeouts only bound the silences).
        let deadline = Task {
            try? await Task.sleep(for: .seconds(timeout))
            guard !Task.isCancelled else { return }
            exchange.finish(.failure(.timedOut))
            task.cancel()
        }
        defer { deadline.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.wait(continuation)
                task.resume()
            }
        } onCancel: {
            exchange.finish(.failure(.cancelled))
            task.cancel()
        }
        return try result.get()
    }

    /// The `URLRequest` for `request`: its method, headers (the configured `User-Agent` unless
    /// the request names one), body and timeout, never from a cache.
    private func urlRequest(for request: HTTPRequest, timeout: TimeInterval) -> URLRequest {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        return urlRequest
    }
}
