public import Foundation
public import Models

/// Sends requests through a transport, following redirects and retrying transient failures,
/// and turns responses into values: `try await client.execute(Endpoint<Account>.get("me"))`.
public struct APIClient: Sendable {
    /// The URL endpoint paths are resolved below.
    public let baseURL: URL
    private let transport: any HTTPTransport
    private let retry: RetryPolicy
    private let maxRedirects: Int
    private let makeDecoder: @Sendable () -> JSONDecoder

    /// - Parameters:
    ///   - baseURL: the URL endpoint paths are resolved below.
    ///   - transport: what sends each request (one hop; redirects are followed here).
    ///   - retry: when and how long to wait before retrying a transient failure.
    ///   - maxRedirects: redirects followed per request (a loop stops sooner).
    ///   - decoder: makes the decoder for `execute`; snake_case with RFC 3339 dates by default.
    public init(
        baseURL: URL, transport: any HTTPTransport, retry: RetryPolicy = RetryPolicy(), maxRedirects: Int = 5,
        decoder: @escaping @Sendable () -> JSONDecoder = { JSONCoding.decoder() }
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.retry = retry
        self.maxRedirects = maxRedirects
        self.makeDecoder = decoder
    }

    /// Sends the endpoint's request and decodes a 2xx body as `Response`.
    ///
    /// - Throws: `.status` for any other status (with the response), `.decoding` with the
    ///   readable path of the first problem, or the transport's error.
    public func execute<Response: Decodable>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response {
        let response = try await data(endpoint)
        do {
            return try makeDecoder().decode(Response.self, from: response.body)
        } catch let error as DecodingError {
            throw .decoding(error.readableDescription(keys: .snakeCase))
        } catch {
            throw .decoding(error.localizedDescription)
        }
    }

    /// Sends the request and returns a 2xx response as it is.
    ///
    /// - Throws: `.status` for any other status.
    public func data(_ provider: some RequestProviding) async throws(NetworkError) -> HTTPResponse {
        let response = try await send(try provider.request(baseURL: baseURL))
        guard response.isSuccess else { throw .status(response) }
        return response
    }

    /// Sends a request, following redirects and retrying transient failures, and returns the
    /// final response whatever its status.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        var attempt = 1
        while true {
            do throws(NetworkError) {
                let response = try await followingRedirects(request)
                guard !NetworkError.status(response).isTransient else { throw NetworkError.status(response) }
                return response
            } catch {
                if case .cancelled = error { throw error }
                guard let delay = retry.delay(after: error, attempt: attempt, request: request) else {
                    if case .status(let response) = error { return response }
                    throw error
                }
                do { try await retry.sleep(delay) } catch { throw .cancelled }
                attempt += 1
            }
        }
    }

    /// Follows 3xx `Location`s up to `maxRedirects`, stopping at a loop and refusing any
    /// `Location` that is not http or https; 303 (and 301/302 after a POST) continue as GET. The response carries the new URL when every hop so far was
    /// permanent (301/308), which is when a stored URL should change.
    /// Whether two URLs share scheme, host and port (the port a scheme implies counts).
    static func sameOrigin(_ one: URL, _ other: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(one) == origin(other)
    }

    private func followingRedirects(_ original: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        var request = original
        var visited: Set<URL> = [original.url]
        var permanent: URL?
        var allPermanent = true
        for _ in 0...maxRedirects {
            try Task.checkCancellation(or: .cancelled)
            var response = try await transport.send(request)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["Location"]
            else {
                response.permanentRedirect = permanent
                return response
            }
            guard let next = URL(string: location, relativeTo: request.url)?.absoluteURL else {
                throw .transport("the server redirected to an invalid URL: \(location)")
            }
            // A remote answer may only lead to another web address (no gopher:, file:, ...).
            if let scheme = NetworkError.unfetchableScheme(next) { throw .unsupportedScheme(scheme, next) }
            allPermanent = allPermanent && [301, 308].contains(response.status)
            if allPermanent { permanent = next }
            guard visited.insert(next).inserted else { throw .tooManyRedirects(next) }
            if response.status == 303 || ([301, 302].contains(response.status) && request.method == .post) {
                request.method = .get
                request.body = nil
            }
            // Credentials stay with the origin they were meant for: a redirect to another scheme,
            // host or port (an https address sending us to http, or to a stranger) drops them,
            // as curl and browsers do.
            if !Self.sameOrigin(request.url, next) {
                for field in ["Authorization", "Proxy-Authorization", "Cookie"] { request.headers[field] = nil }
            }
            request.url = next
        }
        throw .tooManyRedirects(request.url)
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `error` when the current task is cancelled.
    static func checkCancellation(or error: NetworkError) throws(NetworkError) {
        if Task.isCancelled { throw error }
    }
}
