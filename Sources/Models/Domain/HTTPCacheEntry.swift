public import Foundation

/// A stored HTTP response: the body, its validators, and how long it stays fresh.
///
/// Shared by the HTTP client (Networking), which decides what to store, and the database
/// (Storage), which keeps it.
public struct HTTPCacheEntry: Sendable, Hashable, Codable {
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

    /// Whether the entry may be served without asking the server at `date`; a missing or zero
    /// `maxAge` means always ask.
    public func isFresh(at date: Date) -> Bool {
        guard let maxAge, maxAge > 0 else { return false }
        return date.timeIntervalSince(storedAt) < maxAge
    }
}
