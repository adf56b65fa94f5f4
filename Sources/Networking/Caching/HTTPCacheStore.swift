public import Foundation
public import Models

/// Where `CachingClient` keeps responses. Declared here so the client does not depend on a
/// database; the app adapts its own storage to it, and `InMemoryHTTPCacheStore` serves tests.
public protocol HTTPCacheStore: Sendable {
    /// The entry stored for `url`.
    func entry(for url: URL) async -> HTTPCacheEntry?
    /// Stores or replaces the entry for its URL.
    func store(_ entry: HTTPCacheEntry) async
    /// Forgets the entry for `url`.
    func removeEntry(for url: URL) async
}

/// An `HTTPCacheStore` in memory.
public actor InMemoryHTTPCacheStore: HTTPCacheStore {
    private var entries: [URL: HTTPCacheEntry] = [:]

    /// Creates an empty store.
    public init() {}

    /// The entry stored for `url`.
    public func entry(for url: URL) -> HTTPCacheEntry? { entries[url] }

    /// Stores or replaces the entry for its URL.
    public func store(_ entry: HTTPCacheEntry) { entries[entry.url] = entry }

    /// Forgets the entry for `url`.
    public func removeEntry(for url: URL) { entries[url] = nil }
}
