import Foundation
import Networking
import Testing

/// The client over each network transport against a real HTTP server on 127.0.0.1, started and
/// stopped by each test (Support/test_server.py). What the transports themselves must do is in
/// `TransportContractTests` and `TransportLimitsTests`.
@Suite("Real server on loopback", .serialized)
struct LoopbackServerTests {
    func client(_ base: URL, _ kind: TransportKind, sleeps: RecordedSleeps? = nil) -> APIClient {
        let transport = kind.make(TransportConfiguration(timeout: 60))
        let retry =
            sleeps.map { sleeps in
                RetryPolicy(sleep: { duration in
                    sleeps.record(duration)
                    try await Task.sleep(for: duration)
                })
            } ?? RetryPolicy()
        return APIClient(baseURL: base, transport: transport, retry: retry)
    }

    @Test(
        "ETag and Last-Modified round trips: the validators a response carries bring a 304 next time",
        arguments: TransportKind.available)
    func conditionalRoundTrips(kind: TransportKind) async throws {
        try await withTestServer { base in
            for path in ["etag", "lastmod"] {
                let request = HTTPRequest(url: base.appendingPathComponent(path))
                let first = try await client(base, kind).conditionalGet(request, validators: HTTPValidators())
                guard case .response(let response, let validators) = first else {
                    Issue.record("\(path): an unconditional GET came back 304")
                    continue
                }
                #expect(response.status == 200 && !validators.isEmpty)
                guard case .notModified = try await client(base, kind).conditionalGet(request, validators: validators)
                else {
                    Issue.record("\(path): the stored validators did not bring a 304")
                    continue
                }
                // Other validators are a new representation.
                guard
                    case .response(let again, _) = try await client(base, kind).conditionalGet(
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

    @Test("a 503 with Retry-After: 1 is retried after a second and then succeeds", arguments: TransportKind.available)
    func retryAfter(kind: TransportKind) async throws {
        try await withTestServer { base in
            let sleeps = RecordedSleeps()
            let response = try await client(base, kind, sleeps: sleeps).data(
                Endpoint<Data>.get("retry/\(UUID().uuidString)"))
            #expect(String(decoding: response.body, as: UTF8.self) == "recovered")
            #expect(sleeps.all == [.seconds(1)])
        }
    }

    @Test("a redirect chain is followed, a permanent move reported, a loop stopped", arguments: TransportKind.available)
    func redirects(kind: TransportKind) async throws {
        try await withTestServer { base in
            let api = client(base, kind)
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
}
