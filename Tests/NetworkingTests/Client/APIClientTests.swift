import Foundation
import Models
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

private struct Item: Decodable, Equatable {
    var id: Int
    var datePublished: Date
}

private let base = URL(string: "https://api.example.com/v1/")!

/// A client over `transport` whose retries record their waits instead of sleeping.
private func client(_ transport: InMemoryTransport, sleeps: RecordedSleeps = RecordedSleeps(), attempts: Int = 3)
    -> APIClient
{
    APIClient(
        baseURL: base, transport: transport,
        retry: RetryPolicy(
            maxAttempts: attempts, sleep: { sleeps.record($0) }, random: { 0.5 },
            now: { Date(timeIntervalSince1970: 1_615_626_000) }))
}

@Suite("APIClient")
struct APIClientTests {
    @Test("execute builds the URL, sends, checks the status and decodes")
    func executeDecodes() async throws {
        let transport = InMemoryTransport([.json(#"[{"id":1,"date_published":"2021-03-13T09:00:00Z"}]"#)])
        let items = try await client(transport).execute(
            Endpoint<[Item]>.get("items", query: [URLQueryItem(name: "q", value: "a b")]))
        #expect(items == [Item(id: 1, datePublished: Date(timeIntervalSince1970: 1_615_626_000))])
        #expect(transport.requests.map(\.url.absoluteString) == ["https://api.example.com/v1/items?q=a%20b"])
    }

    @Test("a non-2xx status is an error that keeps status, headers and body")
    func statusError() async throws {
        let transport = InMemoryTransport([.init(status: 404, headers: ["X-Why": "gone"], body: Data("nope".utf8))])
        do {
            _ = try await client(transport).execute(Endpoint<[Item]>.get("items"))
            Issue.record("a 404 should throw")
        } catch {
            guard case .status(let response) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(response.status == 404)
            #expect(response.headers["x-why"] == "gone")
            #expect(response.body == Data("nope".utf8))
        }
    }

    @Test("a body that does not decode reports the path in the wire's own key names")
    func decodingError() async throws {
        let transport = InMemoryTransport([
            .json(#"[{"id":1,"date_published":"2021-03-13T09:00:00Z"},{"id":2,"date_published":7}]"#)
        ])
        await #expect(throws: NetworkError.decoding("[1].date_published: expected String, found number")) {
            try await client(transport).execute(Endpoint<[Item]>.get("items"))
        }
    }

    @Test("redirects are followed; 307 keeps the method, 303 continues as GET; the final URL is reported")
    func followsRedirects() async throws {
        let start = URL(string: "https://api.example.com/v1/feed")!
        let transport = InMemoryTransport([
            .init(url: start, status: 307, headers: ["Location": "/v2/feed"]),
            .init(
                url: URL(string: "https://api.example.com/v2/feed")!, status: 303,
                headers: ["Location": "https://cdn.example.com/feed"]),
            .init(url: URL(string: "https://cdn.example.com/feed")!, status: 200, body: Data("done".utf8)),
        ])
        let response = try await client(transport).send(HTTPRequest(method: .post, url: start, body: Data("x".utf8)))
        #expect(response.body == Data("done".utf8))
        #expect(response.url.absoluteString == "https://cdn.example.com/feed")
        #expect(response.permanentRedirect == nil)
        #expect(transport.requests.map(\.method) == [.post, .post, .get])
        #expect(transport.requests.last?.body == nil)
    }

    @Test("credentials follow a redirect only within their origin: another host, scheme or port drops them")
    func redirectsDropCredentialsAcrossOrigins() async throws {
        let start = URL(string: "https://dav.example.com/a")!
        let secret: HTTPHeaders = ["Authorization": "Basic c2VjcmV0", "Cookie": "s=1", "Depth": "1"]
        for (target, keeps) in [
            ("https://dav.example.com/b", true), ("https://DAV.example.com:443/b", true),
            ("http://dav.example.com/b", false), ("https://dav.example.com:8443/b", false),
            ("https://evil.example.net/b", false),
        ] {
            let transport = InMemoryTransport([
                .init(url: start, status: 302, headers: ["Location": target]),
                .init(url: URL(string: target)!, status: 200),
            ])
            _ = try await client(transport).send(HTTPRequest(url: start, headers: secret))
            let second = try #require(transport.requests.last)
            #expect((second.headers["Authorization"] != nil) == keeps, "\(target)")
            #expect((second.headers["Cookie"] != nil) == keeps, "\(target)")
            #expect(second.headers["Depth"] == "1")
        }
    }

    @Test("a chain of permanent redirects is reported so the caller can store the new URL")
    func permanentRedirect() async throws {
        let start = URL(string: "https://old.example.com/feed")!
        let transport = InMemoryTransport([
            .init(url: start, status: 301, headers: ["Location": "https://new.example.com/feed"]),
            .init(
                url: URL(string: "https://new.example.com/feed")!, status: 308,
                headers: ["Location": "https://new.example.com/rss"]),
            .init(url: URL(string: "https://new.example.com/rss")!, status: 200),
        ])
        #expect(
            try await client(transport).send(HTTPRequest(url: start)).permanentRedirect?.absoluteString
                == "https://new.example.com/rss")
        // A temporary hop first means the original URL stays.
        let mixed = InMemoryTransport([
            .init(url: start, status: 302, headers: ["Location": "https://new.example.com/feed"]),
            .init(
                url: URL(string: "https://new.example.com/feed")!, status: 301,
                headers: ["Location": "https://new.example.com/rss"]),
            .init(url: URL(string: "https://new.example.com/rss")!, status: 200),
        ])
        #expect(try await client(mixed).send(HTTPRequest(url: start)).permanentRedirect == nil)
    }

    @Test("more than five redirects, or a loop, stop with tooManyRedirects")
    func redirectLimits() async throws {
        let hops = (0...6).map { index in
            InMemoryTransport.Stub(
                url: URL(string: "https://a.example/\(index)")!, status: 302, headers: ["Location": "/\(index + 1)"])
        }
        await #expect(throws: NetworkError.tooManyRedirects(URL(string: "https://a.example/6")!)) {
            try await client(InMemoryTransport(hops)).send(HTTPRequest(url: URL(string: "https://a.example/0")!))
        }
        let loop = InMemoryTransport([
            .init(url: URL(string: "https://a.example/x")!, status: 302, headers: ["Location": "/y"]),
            .init(url: URL(string: "https://a.example/y")!, status: 302, headers: ["Location": "/x"]),
        ])
        await #expect(throws: NetworkError.tooManyRedirects(URL(string: "https://a.example/x")!)) {
            try await client(loop).send(HTTPRequest(url: URL(string: "https://a.example/x")!))
        }
        #expect(loop.requests.count == 2)
    }

    @Test(
        "transient statuses and timeouts are retried with growing, jittered waits",
        arguments: [408, 429, 500, 502, 503, 504])
    func retriesTransient(status: Int) async throws {
        let sleeps = RecordedSleeps()
        let transport = InMemoryTransport([
            .init(status: status), .init(error: .timedOut), .init(status: 200, body: Data("ok".utf8)),
        ])
        let response = try await client(transport, sleeps: sleeps).data(Endpoint<Data>.get("x"))
        #expect(response.body == Data("ok".utf8))
        #expect(transport.requests.count == 3)
        // 0.5 s then 1 s, each scaled by the jitter (0.5 here).
        #expect(sleeps.all == [.milliseconds(250), .milliseconds(500)])
    }

    @Test("the last failure surfaces once the attempts are used up")
    func givesUp() async throws {
        let transport = InMemoryTransport([
            .init(status: 503), .init(status: 503), .init(status: 503), .init(status: 200),
        ])
        do {
            _ = try await client(transport).data(Endpoint<Data>.get("x"))
            Issue.record("should fail after three attempts")
        } catch {
            guard case .status(let response) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(response.status == 503)
        }
        #expect(transport.requests.count == 3)
    }

    @Test("other 4xx statuses and non-idempotent methods are never retried")
    func noRetry() async throws {
        for status in [400, 401, 403, 404, 410, 422] {
            let transport = InMemoryTransport([.init(status: status), .init(status: 200)])
            await #expect(throws: NetworkError.self) { try await client(transport).data(Endpoint<Data>.get("x")) }
            #expect(transport.requests.count == 1)
        }
        let post = InMemoryTransport([.init(status: 503), .init(status: 200)])
        let response = try await client(post).send(HTTPRequest(method: .post, url: base))
        #expect(response.status == 503)
        #expect(post.requests.count == 1)
    }

    @Test("Retry-After in seconds or as an HTTP date sets the wait, within a cap")
    func retryAfter() async throws {
        let sleeps = RecordedSleeps()
        let transport = InMemoryTransport([
            .init(status: 429, headers: ["Retry-After": "7"]),
            .init(status: 503, headers: ["Retry-After": "Sat, 13 Mar 2021 09:00:30 GMT"]), .init(status: 200),
        ])
        _ = try await client(transport, sleeps: sleeps).data(Endpoint<Data>.get("x"))
        #expect(sleeps.all == [.seconds(7), .seconds(30)])

        let tooLong = InMemoryTransport([.init(status: 503, headers: ["Retry-After": "86400"]), .init(status: 200)])
        await #expect(throws: NetworkError.self) { try await client(tooLong).data(Endpoint<Data>.get("x")) }
        #expect(tooLong.requests.count == 1)
    }

    @Test("a Retry-After with more digits than an Int holds is the longest wait, never 'no wait'")
    func retryAfterOverflow() {
        let now = Date(timeIntervalSince1970: 0)
        #expect(RetryPolicy.retryAfter("9223372036854775807", now: now) == .seconds(Int.max))
        #expect(RetryPolicy.retryAfter("99999999999999999999", now: now) == .seconds(Int.max))
        #expect(RetryPolicy.retryAfter("120", now: now) == .seconds(120))
        #expect(RetryPolicy.retryAfter("-5", now: now) == nil)
        #expect(RetryPolicy.retryAfter("½", now: now) == nil)
    }

    @Test("a transport error is retried and, once the attempts are used up, the last one surfaces unchanged")
    func transportErrorPassesThrough() async throws {
        let sleeps = RecordedSleeps()
        let transport = InMemoryTransport([
            .init(error: .transport("connection reset by peer")), .init(error: .transport("connection reset by peer")),
            .init(error: .transport("connection refused")),
        ])
        await #expect(throws: NetworkError.transport("connection refused")) {
            try await client(transport, sleeps: sleeps).data(Endpoint<Data>.get("x"))
        }
        #expect(
            transport.requests.map(\.url.absoluteString) == Array(repeating: "https://api.example.com/v1/x", count: 3))
        #expect(sleeps.all == [.milliseconds(250), .milliseconds(500)])
    }
}

@Suite("fetchAll", .timeLimit(.minutes(5)))
struct FetchAllTests {
    @Test("results come back in input order, failures included, with at most N in flight")
    func orderedAndBounded() async throws {
        for _ in 0..<50 {
            let gauge = InFlightGauge()
            // Each operation waits at its own gate, which the test opens: the latest started
            // finishes first, so results come back far from input order, and none finishes
            // before 4 run at once.
            let (started, starting) = AsyncStream.makeStream(of: (index: Int, gate: Gate).self)
            async let fetched = fetchAll(Array(0..<40), maxConcurrent: 4) { index -> Result<Int, NetworkError> in
                gauge.enter()
                let gate = Gate()
                starting.yield((index, gate))
                try? await gate.wait()
                gauge.leave()
                return index % 7 == 3 ? .failure(.timedOut) : .success(index * 10)
            }
            var arrivals = started.makeAsyncIterator()
            var held: [Int: Gate] = [:]
            var finished: [Int] = []
            while finished.count < 40 {
                // As many in flight as the bound lets run (fewer at the end), then the latest goes.
                while held.count < min(4, 40 - finished.count), let next = await arrivals.next() {
                    held[next.index] = next.gate
                }
                guard let latest = held.keys.max() else {
                    Issue.record("no operation is waiting; finished: \(finished)")
                    break
                }
                held.removeValue(forKey: latest)?.open()
                finished.append(latest)
            }
            for gate in held.values { gate.open() }
            let results = await fetched
            #expect(finished != finished.sorted())  // not vacuous: they finished out of order
            #expect(results.count == 40)
            for (index, result) in results.enumerated() {
                if index % 7 == 3 {
                    #expect(result == .failure(.timedOut))
                } else {
                    #expect(result == .success(index * 10))
                }
            }
            #expect(gauge.peak == 4)
        }
    }

    @Test("no inputs, no results")
    func empty() async {
        #expect(await fetchAll([Int](), maxConcurrent: 3) { $0 }.isEmpty)
    }
}

/// Counts concurrent operations and remembers the most at once.
final class InFlightGauge: Sendable {
    private let state = Mutex((now: 0, peak: 0))
    var peak: Int { state.withLock { $0.peak } }
    func enter() {
        state.withLock {
            $0.now += 1
            $0.peak = max($0.peak, $0.now)
        }
    }
    func leave() { state.withLock { $0.now -= 1 } }
}

@Suite("HTTPResponse")
struct HTTPResponseTests {
    @Test(
        "charset is read from Content-Type, in any case and quoting",
        arguments: [
            ("application/rss+xml; charset=ISO-8859-1", "ISO-8859-1"), ("text/xml;Charset=\"utf-8\"", "utf-8"),
            ("text/xml; q=1; charset='windows-1252'", "windows-1252"), ("application/json", nil),
        ])
    func charset(contentType: String, expected: String?) throws {
        let response = HTTPResponse(
            status: 200, headers: ["Content-Type": contentType], url: try #require(URL(string: "https://e.example/")))
        #expect(response.charset == expected)
    }
}
