import Foundation
import Models
import Networking
import Storage
import Store
import Testing

@testable import Feed

@Suite("FeedService end to end over loopback HTTP")
struct FeedEndToEndTests {
    @Test(
        "20 feeds: refresh, refresh again (all not modified), change 3 (exactly those re-parsed, the list shows the new items)"
    )
    func twentyFeeds() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = Date(timeIntervalSinceNow: -3600)
        for index in 0..<20 {
            let file = directory.appendingPathComponent("feed\(index).xml")
            try rss(title: "Feed \(index)", prefix: "F\(index)x", count: 5).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: file.path)
        }
        try await withFeedServer(serving: directory) { base in
            try await withTemporaryDatabase { database in
                let counter = ParseCounter()
                let service = FeedService(
                    store: LocalStore(database: database), fetcher: HTTPFeedFetcher(transport: CurlTransport()),
                    maxConcurrentRefreshes: { 8 }, parse: counter.parse)
                let opml = OPML.document(
                    title: "e2e",
                    subscriptions: (0..<20).map {
                        OPMLSubscription(feedURL: base.appendingPathComponent("feed\($0).xml"))
                    })
                #expect(try await service.importOPML(opml).imported == 20)

                let first = try await service.refresh()
                #expect(first.refreshed == 20 && first.newItems == 100 && first.failed.isEmpty)
                #expect(counter.calls == 20)

                let second = try await service.refresh()
                #expect(second.notModified == 20 && second.newItems == 0)
                #expect(counter.calls == 20)  // nothing parsed

                let viewModel = ArticleListViewModel(service: service, pageSize: 200)
                await viewModel.load(ArticleQuery())
                await viewModel.startObserving()
                var states = viewModel.states().makeAsyncIterator()
                let before = try #require(await states.next()?.loaded)
                #expect(before.total == 100)
                let later = Date()
                for index in [3, 7, 11] {
                    let file = directory.appendingPathComponent("feed\(index).xml")
                    try rss(title: "Feed \(index)", prefix: "F\(index)x", count: 6).write(to: file)
                    try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: file.path)
                }
                let third = try await service.refresh()
                #expect(third.newItems == 3 && third.notModified == 17 && third.failed.isEmpty)
                #expect(counter.calls == 23)  // exactly the three changed feeds

                // Each feed's merge is its own commit, so the list publishes one difference per
                // feed, until it shows all 103.
                var differences: [SnapshotDifference<Int64>] = []
                var updated = before
                while updated.total < 103, let state = await states.next() {
                    updated = try #require(state.loaded, "not a loaded state: \(state)")
                    differences.append(updated.difference)
                }
                #expect(updated.total == 103)
                let titles = differences.flatMap(\.inserted).compactMap { updated.rows[$0]?.article.title }
                #expect(titles.sorted() == ["F11x 5", "F3x 5", "F7x 5"])
                #expect(differences.allSatisfy { $0.deleted.isEmpty })
                await viewModel.stopObserving()
            }
        }
    }
}
