import Foundation
import Networking
import Testing

/// The URLSession transport against a real HTTP server on 127.0.0.1, started and stopped by
/// each test (Support/test_server.py).
@Suite("Real server on loopback", .serialized)
struct LoopbackServerTests {
    func client(_ base: URL, timeout: TimeInterval = 5, maxBodySize: Int = 10_000_000, sleeps: RecordedSleeps? = nil)
        -> APIClient
    {
        let transport = CurlTransport(configuration: .init(timeout: timeout, maxBodySize: maxBodySize))
        let retry =
            sleeps.map { sleeps in
                RetryPolicy(sleep: { duration in
                    sleeps.record(duration)
                    try await Task.sleep(for: duration)
                })
            } ?? RetryPolicy()
        return APIClient(baseURL: base, transport: transport, retry: retry)
    }

    @Test("ETag and Last-Modified round trips come back as 304")
    func conditionalRoundTrips() async throws {
        try await withTestServer { base in
            let cache = CachingClient(client: client(base), store: InMemoryHTTPCacheStore())
            for path in ["etag", "lastmod"] {
                let url = base.appendingPathComponent(path)
                let first = try await cache.get(url)
                #expect(first.response.status == 200 && !first.isNotModified)
                let second = try await cache.get(url)
                #expect(second.isNotModified)
                #expect(second.response.body == first.response.body)
            }
        }
    }

    @Test("a 503 with Retry-After: 1 is retried after a second and then succeeds")
    func retryAfter() async throws {
        try await withTestServer { base in
            let sleeps = RecordedSleeps()
            let response = try await client(base, sleeps: sleeps).data(Endpoint<Data>.get("retry/\(UUID().uuidString)"))
            #expect(String(decoding: response.body, as: UTF8.self) == "recovered")
            #expect(sleeps.all == [.seconds(1)])
        }
    }

    // The time limit only stops a broken timeout from hanging the suite; it is not a speed check.
    @Test("a server that never answers times out", .timeLimit(.minutes(1)))
    func timeout() async throws {
        _ = try await withTestServer { base in
            await #expect(throws: NetworkError.timedOut) {
                try await client(base, timeout: 1).send(
                    HTTPRequest(method: .post, url: base.appendingPathComponent("hang")))
            }
        }
    }

    @Test("a body larger than the cap is refused, with or without Content-Length")
    func bodyTooLarge() async throws {
        try await withTestServer { base in
            for path in ["big", "bigstream"] {
                await #expect(throws: NetworkError.bodyTooLarge(limit: 1_000_000)) {
                    try await client(base, maxBodySize: 1_000_000).data(Endpoint<Data>.get(path))
                }
            }
            // Under the default 10 MB cap the streamed 13 MB body is refused too, the 2-byte one is not.
            let small = try await client(base).data(Endpoint<Data>.get("small"))
            #expect(small.body == Data("ok".utf8))
        }
    }

    @Test("a redirect chain is followed, a permanent move reported, a loop stopped")
    func redirects() async throws {
        try await withTestServer { base in
            let api = client(base)
            let landed = try await api.data(Endpoint<Data>.get("redirect/4"))
            #expect(String(decoding: landed.body, as: UTF8.self) == "landed")
            #expect(landed.url.path == "/redirect/0")
            let moved = try await api.data(Endpoint<Data>.get("permanent"))
            #expect(moved.permanentRedirect?.path == "/redirect/0")
            await #expect(throws: NetworkError.tooManyRedirects(base.appendingPathComponent("redirect/0"))) {
                try await api.data(Endpoint<Data>.get("redirect/6"))
            }
            do throws(NetworkError) {
                _ = try await api.data(Endpoint<Data>.get("loop/a"))
                Issue.record("a redirect loop should fail")
            } catch {
                guard case .tooManyRedirects = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
            }
        }
    }

    @Test("a gzip body is decoded")
    func gzip() async throws {
        try await withTestServer { base in
            let response = try await client(base).data(Endpoint<Data>.get("gzip"))
            #expect(String(decoding: response.body, as: UTF8.self) == String(repeating: "unzipped body ", count: 100))
        }
    }

    @Test("a closed port is a transport error, not a crash")
    func refused() async throws {
        let base = try #require(URL(string: "http://127.0.0.1:9"))
        let error = await #expect(throws: NetworkError.self) {
            try await APIClient(baseURL: base, transport: CurlTransport(), retry: .never).data(
                Endpoint<Data>.get("x"))
        }
        guard case .transport = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
    }
}
