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
/// scripted statuses, holds on answers, and counters a test can wait on. A request for a URL
/// nothing is served at fails the test (and is answered 404): a test that expects a 404 serves
/// it (`serveNotFound`).
final class FakeFeedServer: Sendable {
    struct Resource: Sendable {
        var status = 200
        var body = Data()
        var headers: [String: String] = [:]
        var etag: String?
    }

    /// What the server has seen; a test waits for a state of it with `wait(until:)`.
    struct Traffic: Sendable {
        fileprivate(set) var resources: [String: Resource] = [:]
        /// Every request, in the order they arrived.
        fileprivate(set) var requests: [HTTPRequest] = []
        /// Requests arrived and not yet answered (held ones included).
        fileprivate(set) var inFlight = 0
        /// The most requests in flight at once.
        fileprivate(set) var maxInFlight = 0
        /// The URLs answered so far (or given up on when cancelled), in that order.
        fileprivate(set) var answered: [String] = []
        /// Held answers, by URL: each waits until its condition holds.
        fileprivate var holds: [String: @Sendable (Traffic) -> Bool] = [:]
        /// A condition every answer waits for, if any.
        fileprivate var holdAll: (@Sendable (Traffic) -> Bool)?
        /// URLs whose held answers were let go.
        fileprivate(set) var released: Set<String> = []
    }

    private let traffic = Watched(Traffic())

    func serve(_ url: String, body: Data, etag: String? = nil, status: Int = 200, headers: [String: String] = [:]) {
        traffic.update { $0.resources[url] = Resource(status: status, body: body, headers: headers, etag: etag) }
    }

    /// Holds the answers to requests for `url` until `release(url)`: a test lets the server
    /// answer when the event it waits for has happened. A held request whose task is cancelled
    /// fails with `.cancelled`, so a hold never released is a request that never answers.
    func hold(_ url: String) {
        traffic.update { $0.holds[url] = { $0.released.contains(url) } }
    }

    /// Lets the held answers to `url` go, now and from now on.
    func release(_ url: String) {
        traffic.update { _ = $0.released.insert(url) }
    }

    /// Holds every answer until `condition` holds for the traffic (checked again whenever a
    /// request arrives, is answered or is released).
    func holdAll(until condition: @escaping @Sendable (Traffic) -> Bool) {
        traffic.update { $0.holdAll = condition }
    }

    /// Waits until the traffic satisfies `condition` (`CancellationError` if cancelled first).
    @discardableResult
    func wait(until condition: @escaping @Sendable (Traffic) -> Bool) async throws -> Traffic {
        try await traffic.wait(until: condition)
    }

    /// The URLs answered so far, in the order their answers were sent.
    var answered: [String] { traffic.value.answered }

    /// Answers 404 at each of `urls`.
    func serveNotFound(_ urls: [String]) {
        for url in urls { serve(url, body: Data(), status: 404) }
    }

    var requests: [HTTPRequest] { traffic.value.requests }
    var maxInFlight: Int { traffic.value.maxInFlight }
    func requests(to url: String) -> [HTTPRequest] { requests.filter { $0.url.absoluteString == url } }

    var transport: InMemoryTransport {
        InMemoryTransport { request throws(NetworkError) in
            let url = request.url.absoluteString
            let (resource, holds) = self.traffic.update { traffic in
                traffic.requests.append(request)
                traffic.inFlight += 1
                traffic.maxInFlight = max(traffic.maxInFlight, traffic.inFlight)
                return (traffic.resources[url], [traffic.holds[url], traffic.holdAll].compactMap { $0 })
            }
            defer {
                self.traffic.update {
                    $0.inFlight -= 1
                    $0.answered.append(url)
                }
            }
            for hold in holds {
                do { try await self.traffic.wait(until: hold) } catch { throw .cancelled }
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

/// Counts the fetches a service starts, at their start (before anything can turn a cancelled
/// one away), and passes them on.
final class CountingFetcher: FeedFetching {
    private let inner: any FeedFetching
    private let count = Mutex(0)

    init(_ inner: any FeedFetching) { self.inner = inner }

    /// Fetches started so far.
    var started: Int { count.withLock { $0 } }

    func fetch(_ url: URL, etag: String?, lastModified: String?) async throws(FeedError) -> FetchOutcome {
        count.withLock { $0 += 1 }
        return try await inner.fetch(url, etag: etag, lastModified: lastModified)
    }
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
    now: @escaping @Sendable () -> Date = { referenceNow }, batchThreshold: Int = 8 << 20, indexesSearch: Bool = true
) -> FeedService {
    FeedService(
        store: LocalStore(database: database), fetcher: HTTPFeedFetcher(transport: server.transport, now: now),
        now: now,
        maxConcurrentRefreshes: { limit }, parse: counter.parse, batchThreshold: batchThreshold,
        indexesSearch: indexesSearch)
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
