import Foundation
import Models
import Networking
import NetworkingTestSupport
import Store
import Synchronization
import Testing

@testable import Feed
@testable import Storage

/// A fresh database in a temporary file, removed when `body` returns.
/// `onStatement` sees each statement as it starts.
func withTemporaryDatabase<T>(
    options: AppDatabase.Options = AppDatabase.Options(), onStatement: (@Sendable (String) -> Void)? = nil,
    _ body: (AppDatabase) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-feed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = try AppDatabase(
        path: directory.appendingPathComponent("test.sqlite").path, options: options, onStatement: onStatement)
    return try await body(database)
}

/// A small RSS document with `count` items whose titles start with `prefix`.
func rss(title: String, prefix: String = "Item", count: Int, link: String = "https://example.com/") -> Data {
    let items = (0..<count).map { index in
        """
        <item><title>\(prefix) \(index)</title><link>\(link)\(prefix.lowercased())-\(index)</link>\
        <guid>\(link)\(prefix.lowercased())-\(index)</guid>\
        <pubDate>Sat, 13 Mar 2021 \(String(format: "%02d", index % 24)):00:00 GMT</pubDate></item>
        """
    }
    return Data(
        """
        <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title><link>\(link)</link>
        \(items.joined(separator: "\n"))</channel></rss>
        """.utf8)
}

/// A feed server in memory: documents by URL with ETags, conditional GETs answered with 304,
/// scripted statuses, an optional gate that holds requests, and counters. A request for a URL
/// nothing is served at fails the test (and is answered 404): a test that expects a 404 serves
/// it (`serveNotFound`).
final class FakeFeedServer: Sendable {
    struct Resource: Sendable {
        var status = 200
        var body = Data()
        var headers: [String: String] = [:]
        var etag: String?
    }

    private struct State {
        var resources: [String: Resource] = [:]
        var requests: [HTTPRequest] = []
        var inFlight = 0
        var maxInFlight = 0
        var gates: [String: Gate] = [:]
        var answered: [String] = []
    }

    /// An answer held until `isOpen` says so, or for `atMost` if it never does.
    struct Gate: Sendable {
        let atMost: Duration
        let isOpen: @Sendable () -> Bool
    }

    private let state = Mutex(State())
    let delay: Duration

    init(delay: Duration = .zero) { self.delay = delay }

    func serve(_ url: String, body: Data, etag: String? = nil, status: Int = 200, headers: [String: String] = [:]) {
        state.withLock { $0.resources[url] = Resource(status: status, body: body, headers: headers, etag: etag) }
    }

    /// Answers requests for `url` only once `isOpen()` is true, or after `atMost` if it never is:
    /// an order of events that does not depend on how busy the machine is.
    func hold(_ url: String, atMost: Duration, until isOpen: @escaping @Sendable () -> Bool) {
        state.withLock { $0.gates[url] = Gate(atMost: atMost, isOpen: isOpen) }
    }

    /// The URLs answered so far, in the order their answers were sent.
    var answered: [String] { state.withLock { $0.answered } }

    /// Answers 404 at each of `urls`.
    func serveNotFound(_ urls: [String]) {
        for url in urls { serve(url, body: Data(), status: 404) }
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    func requests(to url: String) -> [HTTPRequest] { requests.filter { $0.url.absoluteString == url } }

    var transport: InMemoryTransport {
        InMemoryTransport { request throws(NetworkError) in
            let (resource, gate) = self.state.withLock { state -> (Resource?, Gate?) in
                state.requests.append(request)
                state.inFlight += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight)
                let url = request.url.absoluteString
                return (state.resources[url], state.gates[url])
            }
            defer {
                self.state.withLock {
                    $0.inFlight -= 1
                    $0.answered.append(request.url.absoluteString)
                }
            }
            if self.delay > .zero {
                do { try await Task.sleep(for: self.delay) } catch { throw .cancelled }
            }
            if let gate {
                let deadline = ContinuousClock.now + gate.atMost
                while !gate.isOpen() && ContinuousClock.now < deadline {
                    do { try await Task.sleep(for: .milliseconds(2)) } catch { throw .cancelled }
                }
            }
            guard let resource else {
                Issue.record(
                    "FakeFeedServer: nothing served at \(request.method.rawValue) \(request.url.absoluteString)")
                return HTTPResponse(status: 404, url: request.url)
            }
            var headers = HTTPHeaders(resource.headers)
            if let etag = resource.etag {
                headers["ETag"] = etag
                if request.headers["If-None-Match"] == etag {
                    return HTTPResponse(status: 304, headers: headers, url: request.url)
                }
            }
            return HTTPResponse(status: resource.status, headers: headers, body: resource.body, url: request.url)
        }
    }
}

extension FeedService {
    /// Sets how long a refreshed feed with nothing new waits to be stored with others.
    func setHeldDelay(_ delay: Duration) { heldDelay = delay }
}

/// Counts parser calls.
final class ParseCounter: Sendable {
    private let count = Mutex(0)
    var calls: Int { count.withLock { $0 } }

    var parse: @Sendable (Data, URL, String?) throws(FeedParseError) -> ParsedFeed {
        { data, url, charset throws(FeedParseError) in
            self.count.withLock { $0 += 1 }
            return try FeedDocumentParser.parse(data: data, url: url, charset: charset)
        }
    }
}

/// A fixed clock.
let referenceNow = Date(timeIntervalSince1970: 1_615_680_000)  // 2021-03-14, a day after the items

/// A service over `database` and `server`; documents of `batchThreshold` bytes or more are
/// parsed while they are stored, in batches (1: every document).
func makeService(
    _ database: AppDatabase, _ server: FakeFeedServer, counter: ParseCounter = ParseCounter(), limit: Int = 8,
    now: @escaping @Sendable () -> Date = { referenceNow }, batchThreshold: Int = 8 << 20
) -> FeedService {
    FeedService(
        store: LocalStore(database: database), fetcher: HTTPFeedFetcher(transport: server.transport, now: now),
        now: now,
        maxConcurrentRefreshes: { limit }, parse: counter.parse, batchThreshold: batchThreshold)
}

/// Subscribes `service` to each URL in order and returns the feeds.
func subscribe(_ service: FeedService, _ urls: [String]) async throws -> [FeedSource] {
    var feeds: [FeedSource] = []
    for url in urls { feeds.append(try await service.subscribe(url: #require(URL(string: url))).feed) }
    return feeds
}

/// A fake server, a service over a database fetching from it, and the feeds it subscribed.
struct SubscribedService {
    let server: FakeFeedServer
    let service: FeedService
    let feeds: [FeedSource]
}

/// A fake server serving, at each URL, an RSS document of `count` items for `title`; a service
/// over `database` fetching from it; and the feeds subscribed in order.
func subscribedService(_ database: AppDatabase, _ feeds: [(url: String, title: String, count: Int)])
    async throws -> SubscribedService
{
    let server = FakeFeedServer()
    for feed in feeds { server.serve(feed.url, body: rss(title: feed.title, count: feed.count)) }
    let service = makeService(database, server)
    return SubscribedService(server: server, service: service, feeds: try await subscribe(service, feeds.map(\.url)))
}
