import Foundation
import Models
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

private let url = URL(string: "https://feeds.example.com/feed.xml")!
private let start = Date(timeIntervalSince1970: 1_795_348_800)

/// A settable clock.
final class Clock: Sendable {
    private let time = Mutex(start)
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

@Suite("CachingClient")
struct CachingClientTests {
    func cache(_ transport: InMemoryTransport, _ store: InMemoryHTTPCacheStore, _ clock: Clock) -> CachingClient {
        CachingClient(
            client: APIClient(baseURL: url, transport: transport, retry: .never), store: store, now: { clock.now })
    }

    @Test("validators are sent back and a 304 returns the stored body as not modified")
    func conditionalGet() async throws {
        let transport = InMemoryTransport([
            .init(
                status: 200, headers: ["ETag": "\"v1\"", "Last-Modified": "Sat, 13 Mar 2021 09:00:00 GMT"],
                body: Data("body".utf8)),
            .init(status: 304),
        ])
        let store = InMemoryHTTPCacheStore()
        let clock = Clock()
        let client = cache(transport, store, clock)
        let first = try await client.get(url)
        #expect(!first.isNotModified && !first.isFromCache)
        clock.advance(60)
        let second = try await client.get(url)
        #expect(second.isNotModified)
        #expect(second.response.body == Data("body".utf8))
        #expect(transport.requests[1].headers["If-None-Match"] == "\"v1\"")
        #expect(transport.requests[1].headers["If-Modified-Since"] == "Sat, 13 Mar 2021 09:00:00 GMT")
        #expect(await store.entry(for: url)?.storedAt == clock.now)
    }

    @Test("a response fresh by max-age is served without a request, until it is not")
    func maxAge() async throws {
        let transport = InMemoryTransport([
            .init(
                status: 200, headers: ["Cache-Control": "public, max-age=300", "ETag": "\"a\""], body: Data("v1".utf8)),
            .init(status: 200, headers: ["Cache-Control": "max-age=300"], body: Data("v2".utf8)),
        ])
        let clock = Clock()
        let client = cache(transport, InMemoryHTTPCacheStore(), clock)
        _ = try await client.get(url)
        clock.advance(299)
        let cached = try await client.get(url)
        #expect(cached.isFromCache && !cached.isStale)
        #expect(transport.requests.count == 1)
        clock.advance(2)
        #expect(try await client.get(url).response.body == Data("v2".utf8))
        #expect(transport.requests.count == 2)
    }

    @Test("no-store keeps nothing; no-cache stores but always asks")
    func noStoreNoCache() async throws {
        let store = InMemoryHTTPCacheStore()
        let clock = Clock()
        let noStore = InMemoryTransport([
            .init(status: 200, headers: ["Cache-Control": "no-store", "ETag": "\"x\""], body: Data("secret".utf8))
        ])
        _ = try await cache(noStore, store, clock).get(url)
        #expect(await store.entry(for: url) == nil)

        let noCache = InMemoryTransport([
            .init(
                status: 200, headers: ["Cache-Control": "no-cache, max-age=600", "ETag": "\"y\""], body: Data("b".utf8)),
            .init(status: 304),
        ])
        let client = cache(noCache, store, clock)
        _ = try await client.get(url)
        #expect(try await client.get(url).isNotModified)
        #expect(noCache.requests.count == 2)
    }

    @Test("when the network fails, the stored body comes back marked stale with the error")
    func staleOnError() async throws {
        let transport = InMemoryTransport([
            .init(status: 200, headers: ["ETag": "\"v1\""], body: Data("cached".utf8)), .init(error: .timedOut),
            .init(status: 503),
        ])
        let client = cache(transport, InMemoryHTTPCacheStore(), Clock())
        _ = try await client.get(url)
        let offline = try await client.get(url)
        #expect(offline.isStale)
        #expect(offline.error == .timedOut)
        #expect(offline.response.body == Data("cached".utf8))
        let busy = try await client.get(url)
        #expect(busy.isStale)
        #expect(busy.error?.isTransient == true)
    }

    @Test("with nothing stored, a network failure is an error")
    func errorWithoutCache() async throws {
        let client = cache(InMemoryTransport([.init(error: .timedOut)]), InMemoryHTTPCacheStore(), Clock())
        await #expect(throws: NetworkError.timedOut) { try await client.get(url) }
    }

    @Test("validators older than 8 days are not sent")
    func oldValidators() async throws {
        let transport = InMemoryTransport([
            .init(
                status: 200, headers: ["ETag": "\"v1\"", "Last-Modified": "Sat, 13 Mar 2021 09:00:00 GMT"],
                body: Data("a".utf8)),
            .init(status: 200, body: Data("b".utf8)),
        ])
        let clock = Clock()
        let client = cache(transport, InMemoryHTTPCacheStore(), clock)
        _ = try await client.get(url)
        clock.advance(8 * 86_400 + 1)
        _ = try await client.get(url)
        #expect(transport.requests[1].headers["If-None-Match"] == nil)
        #expect(transport.requests[1].headers["If-Modified-Since"] == nil)
    }

    @Test("a 410 forgets the stored body")
    func goneForgets() async throws {
        let store = InMemoryHTTPCacheStore()
        let transport = InMemoryTransport([.init(status: 200, body: Data("a".utf8)), .init(status: 410)])
        let client = cache(transport, store, Clock())
        _ = try await client.get(url)
        await #expect(throws: NetworkError.self) { try await client.get(url) }
        #expect(await store.entry(for: url) == nil)
    }
}
