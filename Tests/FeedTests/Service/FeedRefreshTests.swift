import Foundation
import GRDB
import Models
import Networking
import NetworkingTestSupport
import Storage
import Store
import Synchronization
import Testing

@testable import Feed

@Suite("FeedService: refreshing", .timeLimit(.minutes(5)))
struct FeedRefreshTests {
    @Test("a second refresh of unchanged feeds makes one conditional request each and parses nothing")
    func unchangedFeedsAreNotParsed() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let urls = serveNumberedFeeds(server, count: 10, items: 5)
            let counter = ParseCounter()
            let service = makeService(database, server, counter: counter)
            _ = try await subscribe(service, urls)
            let before = server.requests.count
            let parsesBefore = counter.calls
            let summary = try await service.refresh()
            #expect(summary.refreshed == 10 && summary.notModified == 10 && summary.failed.isEmpty)
            #expect(server.requests.count - before == 10)
            #expect(server.requests.suffix(10).allSatisfy { $0.headers["If-None-Match"] != nil })
            #expect(counter.calls == parsesBefore)
            #expect(try await service.subscriptions().allSatisfy { $0.lastResult == .notModified })
        }
    }

    @Test("feeds that answer 304 have their states stored together, not in one transaction each")
    func notModifiedStatesAreStoredTogether() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let urls = serveNumberedFeeds(server, count: 12, items: 2)
            let service = makeService(database, server, limit: 12)
            let ids = Set(try await subscribe(service, urls).compactMap(\.id))
            // No tick during the test, however slowly the machine runs: the twelve are stored
            // once the last one is answered.
            await service.setHeldDelay(.seconds(600))
            // The feed changes each transaction made, up to the first that inserts a feed.
            let stream = database.changes(of: .feed)
            let listening = Task {
                var transactions: [Set<Int64>] = []
                for await change in stream {
                    if !change.inserted.isEmpty { break }
                    transactions.append(change.updated)
                }
                return transactions
            }
            let summary = try await service.refresh()
            #expect(summary.notModified == 12)
            // A feed subscribed after the refresh: change sets arrive in commit order, so once
            // its insertion arrives, every change set the refresh committed has.
            let sentinel = "https://feeds.test/after.xml"
            server.serve(sentinel, body: rss(title: "After", count: 1))
            _ = try await subscribe(service, [sentinel])
            let seen = await listening.value
            #expect(seen.reduce(into: Set<Int64>()) { $0.formUnion($1) }.isSuperset(of: ids))
            // One transaction per feed before; one now.
            #expect(seen.count == 1, "\(seen.count) transactions for 12 feeds")
            let refreshed = try await service.subscriptions().filter { ids.contains($0.id ?? 0) }
            #expect(refreshed.count == 12 && refreshed.allSatisfy { $0.lastResult == .notModified })
        }
    }

    /// Serves `count` feeds of `items` items at https://feeds.test/N.xml, each with its own
    /// ETag (so that a second fetch is a 304); returns their URLs in order.
    func serveNumberedFeeds(_ server: FakeFeedServer, count: Int, items: Int) -> [String] {
        let urls = (0..<count).map { "https://feeds.test/\($0).xml" }
        for (index, url) in urls.enumerated() {
            server.serve(url, body: rss(title: "Feed \(index)", count: items), etag: "\"\(index)\"")
        }
        return urls
    }

    static let fast = "https://fast.test/f"
    static let slow = "https://slow.test/f"

    /// A server with two feeds that answer 304 once subscribed; a service subscribed to both;
    /// the fast feed.
    func subscribeFastAndSlow(_ database: AppDatabase) async throws -> (FakeFeedServer, FeedService, FeedSource) {
        let server = FakeFeedServer()
        server.serve(Self.fast, body: rss(title: "Fast", count: 2), etag: "\"f\"")
        server.serve(Self.slow, body: rss(title: "Slow", count: 2), etag: "\"s\"")
        let service = makeService(database, server)
        let fastFeed = try await subscribe(service, [Self.fast, Self.slow])[0]
        return (server, service, fastFeed)
    }

    /// A service over `database` and `server` with at most `limit` feeds at once, and the
    /// counter of the fetches it starts.
    func countingService(_ database: AppDatabase, _ server: FakeFeedServer, limit: Int) -> (
        FeedService, CountingFetcher
    ) {
        let fetcher = CountingFetcher(HTTPFeedFetcher(transport: server.transport, now: { referenceNow }))
        let service = FeedService(
            store: LocalStore(database: database), fetcher: fetcher, now: { referenceNow },
            maxConcurrentRefreshes: { limit })
        return (service, fetcher)
    }

    @Test("a slow server does not hold back the report of a feed that answered 304 long before")
    func heldFeedsAreReportedWithoutWaitingForSlowOnes() async throws {
        try await withTemporaryDatabase { database in
            let (server, service, _) = try await subscribeFastAndSlow(database)
            let earlier = server.answered.count
            // The slow server answers only once the fast feed is reported: the order does not
            // depend on how busy the machine is. (A refresh whose report of the fast feed waited
            // for the slow one would wait forever, until the time limit cancels it.)
            let answeredWhenFastReported = Mutex<[String]?>(nil)
            server.hold(Self.slow)
            let summary = try await service.refresh { event in
                if case .feedFinished(let feed, _, _, _) = event, feed.url.absoluteString == Self.fast {
                    answeredWhenFastReported.withLock { $0 = Array(server.answered.dropFirst(earlier)) }
                    server.release(Self.slow)
                }
            }
            #expect(summary.notModified == 2)
            let answered = try #require(answeredWhenFastReported.withLock { $0 })
            #expect(!answered.contains(Self.slow), "the fast feed was reported only after the slow one")
        }
    }

    @Test("validators are stored and the body hash compared: the same body without a 304 is not parsed")
    func sameBodyIsNotParsed() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(
                "https://x.test/f", body: rss(title: "X", count: 3),
                headers: ["Last-Modified": "Sat, 13 Mar 2021 09:00:00 GMT"])
            let counter = ParseCounter()
            let service = makeService(database, server, counter: counter)
            let feed = try await subscribe(service, ["https://x.test/f"])[0]
            let parses = counter.calls
            server.serve(
                "https://x.test/f", body: rss(title: "X", count: 3),
                headers: ["Last-Modified": "Sun, 14 Mar 2021 09:00:00 GMT"])
            #expect(try await service.refresh().notModified == 1)
            #expect(counter.calls == parses)
            #expect(server.requests.last?.headers["If-Modified-Since"] == "Sat, 13 Mar 2021 09:00:00 GMT")
            #expect(
                try await service.subscription(id: #require(feed.id)).lastModified == "Sun, 14 Mar 2021 09:00:00 GMT")

            server.serve("https://x.test/f", body: rss(title: "X", count: 4))
            let summary = try await service.refresh()
            #expect(summary.newItems == 1 && counter.calls == parses + 1)
        }
    }

    @Test("one feed's failure never stops the others, and each failure is reported with its reason")
    func failuresAreIsolated() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            for index in 0..<4 { server.serve("https://f.test/\(index)", body: rss(title: "F\(index)", count: 2)) }
            let service = makeService(database, server)
            let feeds = try await subscribe(service, (0..<4).map { "https://f.test/\($0)" })
            server.serve("https://f.test/1", body: Data(), status: 500)
            server.serve("https://f.test/2", body: Data("<html><body>oops</body></html>".utf8))
            server.serve("https://f.test/3", body: rss(title: "F3", prefix: "New", count: 2))
            let summary = try await service.refresh()
            #expect(summary.refreshed == 4 && summary.newItems == 2)
            #expect(summary.failed.map(\.feedID) == [feeds[1].id, feeds[2].id].compactMap { $0 })
            #expect(summary.failed.map(\.reason) == ["the server answered HTTP 500", "not a feed: an HTML page"])
            #expect(
                try await service.subscription(id: #require(feeds[1].id)).lastResult
                    == .failed(reason: "the server answered HTTP 500"))
            #expect(try await service.articles(matching: ArticleQuery(feedID: feeds[1].id)).count == 2)  // kept
        }
    }

    @Test("a permanent redirect updates the stored URL; a temporary one does not")
    func permanentRedirectMovesTheFeed() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://old.test/feed", body: rss(title: "Moved", count: 1))
            server.serve("https://tmp.test/feed", body: rss(title: "Tmp", count: 1))
            let service = makeService(database, server)
            let feeds = try await subscribe(service, ["https://old.test/feed", "https://tmp.test/feed"])
            server.serve(
                "https://old.test/feed", body: Data(), status: 301, headers: ["Location": "https://new.test/feed"])
            server.serve("https://new.test/feed", body: rss(title: "Moved", count: 2))
            server.serve(
                "https://tmp.test/feed", body: Data(), status: 302, headers: ["Location": "https://elsewhere.test/feed"]
            )
            server.serve("https://elsewhere.test/feed", body: rss(title: "Tmp", count: 2))
            _ = try await service.refresh()
            #expect(
                try await service.subscription(id: #require(feeds[0].id)).url.absoluteString == "https://new.test/feed")
            #expect(
                try await service.subscription(id: #require(feeds[1].id)).url.absoluteString == "https://tmp.test/feed")
        }
    }

    @Test("410 Gone marks the feed dead and it is not polled again")
    func goneStopsPolling() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://g.test/feed", body: rss(title: "G", count: 1))
            let service = makeService(database, server)
            let feed = try await subscribe(service, ["https://g.test/feed"])[0]
            server.serve("https://g.test/feed", body: Data(), status: 410)
            #expect(try await service.refresh().failed.first?.reason == FeedError.gone.errorDescription)
            #expect(try await service.subscription(id: #require(feed.id)).isGone)
            let requests = server.requests.count
            let summary = try await service.refresh()
            #expect(summary.skipped == 1 && summary.refreshed == 0)
            #expect(server.requests.count == requests)
            // Subscribing to a gone feed subscribes nothing: the server's 410 is the whole reason.
            server.serve("https://g.test/other", body: Data(), status: 410)
            await #expect(throws: FeedError.http(status: 410)) {
                try await service.subscribe(url: #require(URL(string: "https://g.test/other")))
            }
        }
    }

    @Test("429 with Retry-After defers that host: its other feeds wait, other hosts go on")
    func retryAfterDefersTheHost() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            for url in ["https://busy.test/a", "https://busy.test/b", "https://calm.test/c"] {
                server.serve(url, body: rss(title: url, count: 1))
            }
            let clock = Mutex(referenceNow)
            let service = makeService(database, server, limit: 1, now: { clock.withLock { $0 } })
            let feeds = try await subscribe(
                service, ["https://busy.test/a", "https://busy.test/b", "https://calm.test/c"])
            server.serve("https://busy.test/a", body: Data(), status: 429, headers: ["Retry-After": "120"])
            server.serve("https://calm.test/c", body: rss(title: "c", prefix: "More", count: 1))
            let summary = try await service.refresh()
            #expect(summary.failed.count == 1 && summary.skipped == 1 && summary.newItems == 1)
            #expect(server.requests(to: "https://busy.test/b").count == 1)  // only the subscribe
            #expect(
                try await service.subscription(id: #require(feeds[0].id)).retryAfter
                    == referenceNow.addingTimeInterval(120))
            clock.withLock { $0 = referenceNow.addingTimeInterval(121) }
            server.serve("https://busy.test/a", body: rss(title: "a", count: 1))
            #expect(try await service.refresh().skipped == 0)
        }
    }

    @Test("at most maxConcurrentRefreshes requests are in flight, and progress reports every feed")
    func boundedConcurrencyAndProgress() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let urls = (0..<12).map { "https://c.test/\($0)" }
            for url in urls { server.serve(url, body: rss(title: url, count: 1)) }
            let service = makeService(database, server, limit: 3)
            _ = try await subscribe(service, urls)
            let subscribed = server.requests.count

            // The bound, however the machine schedules the work: with no answer ever, the
            // refresh starts as many feeds as it will, then waits. Cancelled once 3 requests are
            // in, it returns only when every feed it started has, so the fetches counted then are
            // all it started.
            let (bounded, fetcher) = countingService(database, server, limit: 3)
            server.holdAll { _ in false }
            let held = Task { try await bounded.refresh() }
            try await server.wait { $0.requests.count - subscribed >= 3 }
            held.cancel()
            #expect(try await held.value.cancelled)
            #expect(fetcher.started == 3)
            #expect(server.maxInFlight == 3)

            // A whole refresh, its answers held until 3 requests are in flight (or the last one
            // has arrived), so that it runs as many at once as it will.
            let total = server.requests.count + urls.count
            server.holdAll { $0.inFlight >= 3 || $0.requests.count >= total }
            let events = Mutex<[RefreshEvent]>([])
            _ = try await service.refresh { event in events.withLock { $0.append(event) } }
            #expect(server.maxInFlight == 3)
            let recorded = events.withLock { $0 }
            #expect(recorded.first == .started(total: 12))
            let finished = recorded.compactMap { event -> Int? in
                if case .feedFinished(_, _, let completed, 12) = event { completed } else { nil }
            }
            #expect(finished == Array(1...12))
            guard case .finished(let summary)? = recorded.last else {
                Issue.record("no finished event")
                return
            }
            #expect(summary.refreshed == 12)

            var streamed: [RefreshEvent] = []
            for await event in service.refreshEvents([1, 2]) { streamed.append(event) }
            #expect(streamed.count == 4)
            var failed: [RefreshEvent] = []
            for await event in service.refreshEvents([404]) { failed.append(event) }
            #expect(failed == [.failedToStart(.notFound(entity: "feed", id: 404))])
        }
    }

    @Test("cancelling a refresh stops the work in flight and leaves the database whole")
    func cancellation() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let urls = (0..<6).map { "https://slow.test/\($0)" }
            for url in urls { server.serve(url, body: rss(title: url, count: 2)) }
            let service = makeService(database, server, limit: 2)
            _ = try await subscribe(service, urls)
            // A server that never answers: its requests end only when cancelled.
            let slow = FakeFeedServer()
            for url in urls { slow.serve(url, body: rss(title: url, prefix: "Late", count: 2)) }
            slow.holdAll { _ in false }
            let (slowService, fetcher) = countingService(database, slow, limit: 2)
            let work = Task { try await slowService.refresh() }
            try await slow.wait { $0.requests.count >= 2 }
            work.cancel()
            let summary = try await work.value
            #expect(summary.cancelled)
            // Nothing new was started (counted as fetches start: a feed started after the
            // cancel would never reach the server).
            #expect(fetcher.started == 2 && slow.requests.count == 2)
            #expect(try await service.articles(matching: ArticleQuery(), limit: 100).count == 12)
            #expect(try await service.subscriptions().allSatisfy { $0.lastResult == .ok })
        }
    }

    @Test("feeds go on starting while their stored-together states wait for the writer")
    func heldStatesWaitingForTheWriterDoNotStopTheRefresh() async throws {
        let server = FakeFeedServer()
        let urls = serveNumberedFeeds(server, count: 3, items: 2)
        // One feed at a time. The second answers only once the first one's state is being
        // stored (at the tick, while the second is in flight: its write transaction begins,
        // and its BEGIN waits for the lock), so the third can start only if that store does
        // not hold up the refresh.
        let armed = Mutex(false)
        let writeBegun = Mutex(false)
        let traced: @Sendable (String) -> Void = { sql in
            if sql.hasPrefix("BEGIN IMMEDIATE"), armed.withLock({ $0 }) {
                writeBegun.withLock { $0 = true }
                server.release(urls[1])
            }
        }
        // The batch waits for the writer as long as the test holds it, which on a busy machine
        // can be longer than the default 5 s. (A refresh that waits for the batch gets no third
        // request until the batch gives up, after these 120 s, and then reports it failed.)
        try await withTemporaryDatabase(options: .init(busyTimeout: .seconds(120)), onStatement: traced) { database in
            let service = makeService(database, server, limit: 1)
            _ = try await subscribe(service, urls)
            server.hold(urls[1])
            let before = server.requests.count
            // Another connection holds the write lock, as a long merge would, until released.
            let holding = Gate()
            let release = DispatchSemaphore(value: 0)
            let blocker = try DatabaseQueue(path: database.path)
            let thread = Thread {
                do {
                    try blocker.inTransaction(.immediate) { _ in
                        holding.open()
                        release.wait()
                        return .commit
                    }
                } catch {
                    Issue.record("the blocker could not hold the write lock: \(error)")
                }
                holding.open()
            }
            thread.start()
            defer { release.signal() }
            try await holding.wait()
            armed.withLock { $0 = true }
            let work = Task { try await service.refresh() }
            // Every feed is asked for while the first one's state still waits for the writer.
            try await server.wait { $0.requests.count - before >= urls.count }
            release.signal()
            let summary = try await work.value
            #expect(server.requests.count - before == urls.count)
            #expect(summary.notModified == 3 && summary.failed.isEmpty && !summary.storingFailed)
            #expect(writeBegun.withLock { $0 }, "no state was stored while the second feed was in flight")
        }
    }

    @Test("cancelling keeps the state of a feed that answered 304 before the cancel, reported not modified")
    func cancellationKeepsHeldFeeds() async throws {
        try await withTemporaryDatabase { database in
            let (server, service, fastFeed) = try await subscribeFastAndSlow(database)
            server.hold(Self.slow)  // never released: the slow feed ends only when cancelled
            let later = Date(timeIntervalSince1970: referenceNow.timeIntervalSince1970 + 3_600)
            let earlier = server.answered.count
            let refreshing = makeService(database, server, now: { later })
            let outcomes = Mutex<[String: FeedRefreshOutcome]>([:])
            let work = Task {
                try await refreshing.refresh { event in
                    if case .feedFinished(let feed, let outcome, _, _) = event {
                        outcomes.withLock { $0[feed.url.absoluteString] = outcome }
                    }
                }
            }
            // Cancel as soon as the fast feed is answered: it is held then, its state not yet stored.
            try await server.wait { $0.answered.dropFirst(earlier).contains(Self.fast) }
            work.cancel()
            let summary = try await work.value
            #expect(summary.cancelled)
            #expect(!summary.storingFailed)
            #expect(outcomes.withLock { $0[Self.fast] } == .notModified)
            #expect(outcomes.withLock { $0[Self.slow] } == .failed(.cancelled))
            let stored = try await service.subscription(id: try #require(fastFeed.id))
            #expect(stored.lastResult == .notModified && stored.lastRefreshedAt == later)
        }
    }
}
