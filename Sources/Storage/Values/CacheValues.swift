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
    /// Where it was fetched from, when known.
    public var sourceURL: String?

    public init(
        body: Data, etag: String? = nil, lastModified: String? = nil, fetchedAt: Date, sourceURL: String? = nil
    ) {
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.sourceURL = sourceURL
    }
}
