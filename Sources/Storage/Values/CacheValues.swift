public import Foundation

/// A fetched document kept with the validators needed to ask for it again conditionally.
public struct CachedDocument: Sendable, Hashable {
    /// The body as it was received.
    public var body: Data
    /// The response's `ETag`.
    public var etag: String?
    /// The response's `Last-Modified`.
    public var lastModified: String?
    /// When it was fetched.
    public var fetchedAt: Date

    /// Creates a cached document.
    public init(body: Data, etag: String? = nil, lastModified: String? = nil, fetchedAt: Date) {
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
    }
}

/// A stored HTTP response: the body, its validators, and how long it stays fresh.
public struct HTTPCacheEntry: Sendable, Hashable {
    /// The request URL.
    public var url: URL
    /// The response body.
    public var body: Data
    /// The `ETag` to send as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` to send as `If-Modified-Since`.
    public var lastModified: String?
    /// Seconds the response is fresh for (`Cache-Control: max-age`); `nil` when not given.
    public var maxAge: TimeInterval?
    /// When the response was received (or last revalidated).
    public var storedAt: Date

    /// Creates an entry.
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

    /// Whether the entry may be served without asking the server at `date`.
    public func isFresh(at date: Date) -> Bool {
        guard let maxAge else { return false }
        return date.timeIntervalSince(storedAt) < maxAge
    }
}
