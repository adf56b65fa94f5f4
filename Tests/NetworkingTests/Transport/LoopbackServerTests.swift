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

    @Test("ETag and Last-Modified round trips: the validators a response carries bring a 304 next time")
    func conditionalRoundTrips() async throws {
        try await withTestServer { base in
            for path in ["etag", "lastmod"] {
                let request = HTTPRequest(url: base.appendingPathComponent(path))
                let first = try await client(base).conditionalGet(request, validators: HTTPValidators())
                guard case .response(let response, let validators) = first else {
                    Issue.record("\(path): an unconditional GET came back 304")
                    continue
                }
                #expect(response.status == 200 && !validators.isEmpty)
                guard case .notModified = try await client(base).conditionalGet(request, validators: validators) else {
                    Issue.record("\(path): the stored validators did not bring a 304")
                    continue
                }
                // Other validators are a new representation.
                guard
                    case .response(let again, _) = try await client(base).conditionalGet(
                        request,
                        validators: HTTPValidators(etag: "\"other\"", lastModified: "Mon, 01 Jan 2001 00:00:00 GMT"))
                else {
                    Issue.record("\(path): foreign validators brought a 304")
                    continue
                }
                #expect(again.status == 200 && again.body == response.body)
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

    @Test("a server that never answers times out within the configured limit")
    func timeout() async throws {
        try await withTestServer { base in
            let started = ContinuousClock.now
            await #expect(throws: NetworkError.timedOut) {
                try await client(base, timeout: 1).send(
                    HTTPRequest(method: .post, url: base.appendingPathComponent("hang")))
            }
            // Bounded so a broken timeout cannot hang the suite; not a speed assertion.
            #expect(ContinuousClock.now - started < .seconds(20))
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
            await #expect(throws: NetworkError.self) { try await api.data(Endpoint<Data>.get("redirect/6")) }
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
        await #expect(throws: NetworkError.self) {
            try await APIClient(baseURL: base, transport: CurlTransport(), retry: .never).data(
                Endpoint<Data>.get("x"))
        }
    }
}
