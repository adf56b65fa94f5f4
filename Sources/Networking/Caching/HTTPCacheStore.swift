public import Foundation

/// A stored response: body, validators, freshness.
public struct CachedResponse: Sendable, Hashable {
    /// The request URL it answers.
    public var url: URL
    /// The body.
    public var body: Data
    /// `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// Seconds the body is fresh for after `storedAt`; 0 or `nil` means ask every time.
    public var maxAge: TimeInterval?
    /// When it was received or last confirmed with a 304.
    public var storedAt: Date

    /// Creates a cached response.
    public init(
        url: URL, body: Data, etag: String? = nil, lastModified: String? = nil, maxAge: TimeInterval? = nil,
        storedAt: Date
    ) {
        self.url = url
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.maxAge = maxAge
        self.storedAt = storedAt
    }

    /// Whether it can be served at `date` without asking the server.
    public func isFresh(at date: Date) -> Bool {
        guard let maxAge, maxAge > 0 else { return false }
        return date.timeIntervalSince(storedAt) < maxAge
    }
}

/// Where `CachingClient` keeps responses. Declared here so the client does not depend on a
/// database; the app adapts its own storage to it, and `InMemoryHTTPCacheStore` serves tests.
public protocol HTTPCacheStore: Sendable {
    /// The response stored for `url`.
    func response(for url: URL) async -> CachedResponse?
    /// Stores or replaces the response for its URL.
    func store(_ response: CachedResponse) async
    /// Forgets the response for `url`.
    func removeResponse(for url: URL) async
}

/// An `HTTPCacheStore` in memory.
public actor InMemoryHTTPCacheStore: HTTPCacheStore {
    private var responses: [URL: CachedResponse] = [:]

    /// Creates an empty store.
    public init() {}

    /// The response stored for `url`.
    public func response(for url: URL) -> CachedResponse? { responses[url] }

    /// Stores or replaces the response for its URL.
    public func store(_ response: CachedResponse) { responses[response.url] = response }

    /// Forgets the response for `url`.
    public func removeResponse(for url: URL) { responses[url] = nil }
}
