public import Foundation
public import Networking

/// A fetched feed document and what the server said about it.
public struct FetchedDocument: Sendable, Hashable {
    /// The body, as sent.
    public var body: Data
    /// The URL the body came from, after redirects.
    public var url: URL
    /// The `ETag` validator, if any.
    public var etag: String?
    /// The `Last-Modified` validator, if any.
    public var lastModified: String?
    /// The charset of the `Content-Type` header, if any.
    public var charset: String?
    /// The media type of the `Content-Type` header (`text/html`), if any.
    public var mediaType: String?
    /// Where every redirect on the way was permanent (301/308): the URL to use from now on.
    public var permanentRedirect: URL?
    /// The `max-age` of the `Cache-Control` header, unless it also says `no-cache` or
    /// `no-store`.
    public var maxAge: TimeInterval?

    public init(
        body: Data, url: URL, etag: String? = nil, lastModified: String? = nil, charset: String? = nil,
        mediaType: String? = nil, permanentRedirect: URL? = nil, maxAge: TimeInterval? = nil
    ) {
        self.body = body
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.charset = charset
        self.mediaType = mediaType
        self.permanentRedirect = permanentRedirect
        self.maxAge = maxAge
    }
}

/// What a conditional fetch returned.
public enum FetchOutcome: Sendable, Hashable {
    /// The server answered 304: the stored copy is current.
    case notModified
    /// A new body.
    case fetched(FetchedDocument)
}

/// Fetches feed documents: the one side effect the feed service needs from outside.
public protocol FeedFetching: Sendable {
    /// Fetches `url`, conditionally when validators are given.
    ///
    /// - Throws: `FeedError.gone` for 410, `.rateLimited` for 429/503, `.http` for other
    ///   failing statuses, `.network` when nothing came back, `.cancelled`.
    func fetch(_ url: URL, etag: String?, lastModified: String?) async throws(FeedError) -> FetchOutcome
}

extension FeedFetching {
    /// Fetches `url` for a one-shot command (`feed add`, `tidings parse`): a server answering
    /// 429/503 with a `Retry-After` of at most `patience` is waited out once and asked again;
    /// a longer deferral fails at once as `.rateLimited`.
    public func fetchWaitingBriefly(
        _ url: URL, patience: Duration = .seconds(10), now: @Sendable () -> Date,
        sleep: @Sendable (Duration) async throws -> Void
    ) async throws(FeedError) -> FetchOutcome {
        do {
            return try await fetch(url, etag: nil, lastModified: nil)
        } catch .rateLimited(_, let until?) where until.timeIntervalSince(now()) <= patience.timeInterval {
            let wait = max(0, until.timeIntervalSince(now()))
            do { try await sleep(.milliseconds(Int((wait * 1000).rounded(.up)))) } catch { throw .cancelled }
            return try await fetch(url, etag: nil, lastModified: nil)
        }
    }
}

/// Fetches over HTTP through Networking's `APIClient` (redirects followed, permanent ones
/// reported), and reads `file:` URLs from disk.
public struct HTTPFeedFetcher: FeedFetching {
    /// `max-age` of a `Cache-Control` value (`public, max-age=900`), unless it also says
    /// `no-cache` or `no-store`.
    static func maxAge(_ value: String?) -> TimeInterval? {
        guard let value else { return nil }
        var age: TimeInterval?
        for directive in value.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts[0] == "no-cache" || parts[0] == "no-store" { return nil }
            if parts[0] == "max-age", parts.count == 2,
                let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds > 0
            {
                age = TimeInterval(seconds)
            }
        }
        return age
    }

    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private let timeout: TimeInterval

    /// - Parameters:
    ///   - transport: what sends the requests.
    ///   - timeout: seconds a whole exchange may take.
    ///   - now: the current time (tests pass a clock they control).
    public init(
        transport: any HTTPTransport, timeout: TimeInterval = 30, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.transport = transport
        self.timeout = timeout
        self.now = now
    }

    /// Fetches `url`; see `FeedFetching`.
    public func fetch(_ url: URL, etag: String?, lastModified: String?) async throws(FeedError) -> FetchOutcome {
        if url.isFileURL { return try await Self.readFile(url) }
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw .invalidURL("\(url.absoluteString) (only http, https and file URLs can be fetched)")
        }
        let request = HTTPRequest(url: url, headers: ["Accept": Self.accept], timeout: timeout)
        let client = APIClient(baseURL: url, transport: transport, retry: .never)
        let response: HTTPResponse
        let validators: HTTPValidators
        do {
            switch try await client.conditionalGet(
                request, validators: HTTPValidators(etag: etag, lastModified: lastModified))
            {
            case .notModified: return .notModified
            case .response(let answer, let carried): (response, validators) = (answer, carried)
            }
        } catch {
            throw FeedError(error)
        }
        switch response.status {
        case 200..<300:
            let type = response.headers["Content-Type"]
            return .fetched(
                FetchedDocument(
                    body: response.body, url: response.url, etag: validators.etag,
                    lastModified: validators.lastModified, charset: response.charset,
                    mediaType: type.map {
                        $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
                    },
                    permanentRedirect: response.permanentRedirect,
                    maxAge: Self.maxAge(response.headers["Cache-Control"])))
        case 410:
            throw .gone
        case 429, 503:
            // The server's own date: the service caps what it stores and says (`maxRetryAfter`).
            let wait = RetryPolicy.retryAfter(response.headers["Retry-After"], now: now())
            throw .rateLimited(status: response.status, until: wait.map { now().addingTimeInterval($0.timeInterval) })
        default:
            throw .http(status: response.status)
        }
    }

    static let accept =
        "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8"

    private static func readFile(_ url: URL) async throws(FeedError) -> FetchOutcome {
        do {
            return .fetched(FetchedDocument(body: try LocalFile.read(url, mapping: true), url: url))
        } catch {
            throw .file("cannot read \(url.path): \(error.reason)")
        }
    }
}
