import Foundation
import Models
import Networking
import Storage
import Store
import Synchronization
import Testing

@testable import Feed

/// A clock a test moves.
private final class TestClock: Sendable {
    private let time = Mutex(referenceNow)
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

@Suite("FeedService: each feed at its own pace")
struct FeedPaceTests {
    private func service(_ database: AppDatabase, _ server: FakeFeedServer, _ clock: TestClock) -> FeedService {
        FeedService(
            store: LocalStore(database: database),
            fetcher: HTTPFeedFetcher(transport: server.transport, now: { clock.now }), now: { clock.now })
    }

    @Test("ttl, sy:updatePeriod/updateFrequency and Cache-Control max-age set a feed's pace; the longest wins")
    func paceFromFeedAndServer() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let clock = TestClock()
            let ttl = String(decoding: rss(title: "T", count: 1), as: UTF8.self)
                .replacingOccurrences(of: "<title>T</title>", with: "<title>T</title><ttl>90</ttl>")
            let sy = String(decoding: rss(title: "S", count: 1), as: UTF8.self)
                .replacingOccurrences(
                    of: "<rss ", with: "<rss xmlns:sy=\"http://purl.org/rss/1.0/modules/syndication/\" "
                )
                .replacingOccurrences(
                    of: "<title>S</title>",
                    with:
                        "<title>S</title><sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>4</sy:updateFrequency>"
                )
            server.serve("https://a.test/ttl", body: Data(ttl.utf8), headers: ["Cache-Control": "max-age=60"])
            server.serve("https://a.test/sy", body: Data(sy.utf8))
            server.serve(
                "https://a.test/age", body: rss(title: "A", count: 1),
                headers: ["Cache-Control": "public, max-age=7200"])
            server.serve(
                "https://a.test/none", body: rss(title: "N", count: 1),
                headers: ["Cache-Control": "no-cache, max-age=7200"])
            let service = service(database, server, clock)
            let feeds = try await subscribe(
                service, ["https://a.test/ttl", "https://a.test/sy", "https://a.test/age", "https://a.test/none"])
            var paces: [TimeInterval?] = []
            for feed in feeds { paces.append(try await service.subscription(id: feed.id ?? 0).pace) }
            #expect(paces == [5_400, 21_600, 7_200, nil])
        }
    }

    @Test("an automatic refresh leaves a feed alone until its pace and the interval have passed; by hand it is fetched")
    func automaticRefreshKeepsPace() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let clock = TestClock()
            let slow = String(decoding: rss(title: "Slow", count: 1), as: UTF8.self)
                .replacingOccurrences(of: "<title>Slow</title>", with: "<title>Slow</title><ttl>60</ttl>")
            server.serve("https://a.test/slow", body: Data(slow.utf8))
            server.serve("https://a.test/fast", body: rss(title: "Fast", count: 1))
            let service = service(database, server, clock)
            _ = try await subscribe(service, ["https://a.test/slow", "https://a.test/fast"])
            clock.advance(10 * 60)
            // Ten minutes on, with an interval of five: only the feed without a pace is due.
            #expect(try await service.refresh(due: 300).refreshed == 1)
            #expect(try await service.refresh(due: 300).refreshed == 0)
            clock.advance(55 * 60)
            #expect(try await service.refresh(due: 300).refreshed == 2)
            // By hand, every feed, whatever its pace.
            #expect(try await service.refresh().refreshed == 2)
        }
    }
}
