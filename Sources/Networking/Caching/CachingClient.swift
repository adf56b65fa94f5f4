public import Foundation
import Models

/// GETs through an HTTP cache that Tidings keeps itself (`URLCache` on Linux stores nothing).
///
/// - A response still fresh by `Cache-Control: max-age` is served without a request.
/// - Otherwise the request carries `If-None-Match` / `If-Modified-Since`, and a 304 returns the
///   stored body with `isNotModified`. Validators older than `validatorLifetime` (8 days) are
///   not sent: some servers answer 304 to anything.
/// - `no-store` keeps nothing; `no-cache` stores but always revalidates.
/// - When the network fails and a body is stored, it comes back with `isStale` and the error,
///   so the caller can say "showing cached data".
public struct CachingClient: Sendable {
    /// What a cached GET produced.
    public struct Result: Sendable {
        /// The response (for a 304 or a stale answer, the stored body with status 200).
        public var response: HTTPResponse
        /// The server confirmed the stored body with a 304.
        public var isNotModified: Bool
        /// The stored body was served without asking the server (it was fresh).
        public var isFromCache: Bool
        /// The network failed and this is the stored body, possibly out of date.
        public var isStale: Bool
        /// Why the network failed, when `isStale`.
        public var error: NetworkError?
    }

    private let client: APIClient
    private let store: any HTTPCacheStore
    private let now: @Sendable () -> Date
    private let validatorLifetime: TimeInterval

    /// Creates a caching client.
    public init(
        client: APIClient, store: any HTTPCacheStore, validatorLifetime: TimeInterval = 8 * 86_400,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.store = store
        self.validatorLifetime = validatorLifetime
        self.now = now
    }

    /// GETs `url` through the cache.
    ///
    /// - Throws: `.status` for a non-2xx answer other than 304 (a 404 or 410 also forgets the
    ///   stored body), or the network error when nothing is stored.
    public func get(_ url: URL, headers: HTTPHeaders = [:]) async throws(NetworkError) -> Result {
        let stored = await store.entry(for: url)
        let date = now()
        if let stored, stored.isFresh(at: date) {
            return Result(
                response: Self.response(from: stored), isNotModified: false, isFromCache: true, isStale: false)
        }
        var request = HTTPRequest(url: url, headers: headers)
        if let stored, date.timeIntervalSince(stored.storedAt) < validatorLifetime {
            if let etag = stored.etag { request.headers["If-None-Match"] = etag }
            if let lastModified = stored.lastModified { request.headers["If-Modified-Since"] = lastModified }
        }

        let response: HTTPResponse
        do {
            response = try await client.send(request)
        } catch {
            guard let stored, error != .cancelled else { throw error }
            return Result(
                response: Self.response(from: stored), isNotModified: false, isFromCache: true, isStale: true,
                error: error)
        }

        if response.status == 304, let stored {
            var confirmed = stored
            confirmed.storedAt = date
            confirmed.maxAge = CacheControl(response.headers["Cache-Control"]).maxAge ?? stored.maxAge
            await store.store(confirmed)
            var answer = Self.response(from: confirmed)
            answer.permanentRedirect = response.permanentRedirect
            return Result(response: answer, isNotModified: true, isFromCache: true, isStale: false)
        }
        guard response.isSuccess else {
            if [404, 410].contains(response.status) { await store.removeEntry(for: url) }
            if let stored, NetworkError.status(response).isTransient {
                return Result(
                    response: Self.response(from: stored), isNotModified: false, isFromCache: true, isStale: true,
                    error: .status(response))
            }
            throw .status(response)
        }
        let control = CacheControl(response.headers["Cache-Control"])
        if control.noStore {
            await store.removeEntry(for: url)
        } else {
            await store.store(
                HTTPCacheEntry(
                    url: url, body: response.body, etag: response.headers["ETag"],
                    lastModified: response.headers["Last-Modified"], maxAge: control.noCache ? 0 : control.maxAge,
                    storedAt: date))
        }
        return Result(response: response, isNotModified: false, isFromCache: false, isStale: false)
    }

    private static func response(from stored: HTTPCacheEntry) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers["ETag"] = stored.etag
        headers["Last-Modified"] = stored.lastModified
        return HTTPResponse(status: 200, headers: headers, body: stored.body, url: stored.url)
    }
}

/// The directives of a `Cache-Control` header that the cache acts on.
struct CacheControl: Equatable {
    var maxAge: TimeInterval?
    var noStore = false
    var noCache = false

    init(_ header: String?) {
        for directive in (header ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            switch parts.first {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age":
                if parts.count == 2,
                    let seconds = TimeInterval(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
                {
                    maxAge = max(0, seconds)
                }
            default: continue
            }
        }
    }
}
