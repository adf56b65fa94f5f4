import Foundation
import Models
import Networking
import Storage
import Store
import Synchronization
import Testing

@testable import Feed

/// Waits a service was asked for, recorded instead of slept; `onSleep` runs as time "passes".
private final class RecordedWaits: Sendable {
    private let waits = Mutex<[Duration]>([])
    let onSleep: @Sendable () -> Void
    init(onSleep: @escaping @Sendable () -> Void = {}) { self.onSleep = onSleep }
    var all: [Duration] { waits.withLock { $0 } }
    func sleep(_ duration: Duration) async throws {
        waits.withLock { $0.append(duration) }
        onSleep()
    }
}

private func service(_ database: AppDatabase, _ server: FakeFeedServer, waits: RecordedWaits = RecordedWaits())
    -> FeedService
{
    FeedService(
        store: LocalStore(database: database),
        fetcher: HTTPFeedFetcher(transport: server.transport, now: { referenceNow }),
        now: { referenceNow }, sleep: { try await waits.sleep($0) })
}

@Suite("FeedService: servers that ask to wait or say gone")
struct FeedDeferralTests {
    let url = "https://slow.test/feed.xml"
    let oneDay: TimeInterval = 86_400

    @Test(
        "a Retry-After of centuries (huge delta-seconds, a date in 2099) defers a feed by one day at most",
        arguments: ["9223372036854775807", "99999999999999999999", "Thu, 01 Jan 2099 00:00:00 GMT"])
    func deferralIsCapped(retryAfter: String) async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: rss(title: "Slow", count: 2))
            let service = service(database, server)
            let id = try #require(try await subscribe(service, [url])[0].id)
            server.serve(url, body: Data(), status: 429, headers: ["Retry-After": retryAfter])
            let summary = try await service.refresh()
            let until = try #require(try await service.subscription(id: id).retryAfter)
            #expect(until <= referenceNow.addingTimeInterval(oneDay))
            // The message names the capped time, not the server's.
            let capped = ISO8601DateFormatter().string(from: until)
            #expect(summary.failed.first?.reason.contains(capped) == true, "\(summary.failed)")
            if retryAfter.first?.isNumber == true, retryAfter.count < 20 {
                #expect(until == referenceNow.addingTimeInterval(oneDay))
            }
        }
    }

    @Test("the cap is a setting: maxRetryAfter of one hour caps a day-long Retry-After at an hour")
    func capIsConfigurable() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: rss(title: "Slow", count: 2))
            let service = FeedService(
                store: LocalStore(database: database),
                fetcher: HTTPFeedFetcher(transport: server.transport, now: { referenceNow }),
                now: { referenceNow }, maxRetryAfter: { .seconds(3600) })
            let id = try #require(try await subscribe(service, [url])[0].id)
            server.serve(url, body: Data(), status: 503, headers: ["Retry-After": "86400"])
            _ = try await service.refresh()
            #expect(try await service.subscription(id: id).retryAfter == referenceNow.addingTimeInterval(3600))
        }
    }

    @Test("refreshing every feed skips a deferred one; naming it fetches it, and once it answers it is polled again")
    func namedRefreshOverridesDeferral() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: rss(title: "Slow", count: 2))
            let service = service(database, server)
            let id = try #require(try await subscribe(service, [url])[0].id)
            server.serve(url, body: Data(), status: 429, headers: ["Retry-After": "3600"])
            _ = try await service.refresh()
            server.serve(url, body: rss(title: "Slow", count: 3))
            let requests = server.requests(to: url).count
            let all = try await service.refresh()
            #expect(all.skipped == 1 && server.requests(to: url).count == requests)
            let named = try await service.refresh([id])
            #expect(named.newItems == 1 && named.resumed.map(\.feedID) == [id] && named.failed.isEmpty)
            #expect(try await service.subscription(id: id).retryAfter == nil)
            server.serve(url, body: rss(title: "Slow", count: 4))
            let again = try await service.refresh()
            #expect(again.skipped == 0 && again.newItems == 1 && again.resumed.isEmpty)
        }
    }

    @Test("a gone (410) feed is skipped by a full refresh; named, it comes back with its read and starred states")
    func goneFeedComesBack() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: rss(title: "Retired", count: 3))
            let service = service(database, server)
            let id = try #require(try await subscribe(service, [url])[0].id)
            let articles = try await service.articles(matching: ArticleQuery(feedID: id), limit: 10)
            let first = try #require(articles.first?.id)
            try await service.mark([first], .star)
            server.serve(url, body: Data(), status: 410)
            _ = try await service.refresh()
            #expect(try await service.subscription(id: id).isGone)
            server.serve(url, body: rss(title: "Retired", count: 4))
            #expect(try await service.refresh().skipped == 1)
            let named = try await service.refresh([id])
            #expect(named.resumed.map(\.reason) == ["it had been gone"] && named.newItems == 1)
            #expect(try await service.subscription(id: id).isGone == false)
            let starred = try await service.articles(matching: ArticleQuery(starredOnly: true), limit: 10)
            #expect(starred.map(\.id) == [first])
        }
    }

    @Test("subscribe waits out a Retry-After of a few seconds once, then adds the feed")
    func subscribeWaitsBriefly() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: Data(), status: 503, headers: ["Retry-After": "3"])
            let waits = RecordedWaits { server.serve(self.url, body: rss(title: "Busy", count: 2)) }
            let service = service(database, server, waits: waits)
            let added = try await service.subscribe(url: try #require(URL(string: url)))
            #expect(added.itemCount == 2)
            #expect(waits.all == [.seconds(3)])
        }
    }

    @Test("subscribe does not wait for a Retry-After over ten seconds, nor twice")
    func subscribeDoesNotWaitLong() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: Data(), status: 429, headers: ["Retry-After": "11"])
            let waits = RecordedWaits()
            let service = service(database, server, waits: waits)
            await #expect(throws: FeedError.self) { try await service.subscribe(url: try #require(URL(string: url))) }
            #expect(waits.all.isEmpty)
            server.serve(url, body: Data(), status: 429, headers: ["Retry-After": "2"])
            await #expect(throws: FeedError.self) { try await service.subscribe(url: try #require(URL(string: url))) }
            #expect(waits.all == [.seconds(2)])
        }
    }

    @Test(
        "the cap is the service's, applied once: subscribing to a feed that asks for a week names the capped time, and the fetcher itself reports the server's own"
    )
    func subscribeNamesTheCappedTime() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve(url, body: Data(), status: 503, headers: ["Retry-After": "604800"])
            let fetcher = HTTPFeedFetcher(transport: server.transport, now: { referenceNow })
            let service = FeedService(
                store: LocalStore(database: database), fetcher: fetcher, now: { referenceNow },
                maxRetryAfter: { .seconds(3600) })
            await #expect(throws: FeedError.rateLimited(status: 503, until: referenceNow.addingTimeInterval(3600))) {
                try await service.subscribe(url: try #require(URL(string: url)))
            }
            await #expect(
                throws: FeedError.rateLimited(status: 503, until: referenceNow.addingTimeInterval(604_800))
            ) { try await fetcher.fetch(try #require(URL(string: url)), etag: nil, lastModified: nil) }
        }
    }
}
