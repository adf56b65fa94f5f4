import Foundation
import Models
import Networking
import Storage
import Synchronization
import Testing

@testable import Feed

/// Collects a view model's states as they are published.
final class StateRecorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<Value>, onEach: (@Sendable (Value) async -> Void)? = nil) {
        task.withLock {
            $0 = Task {
                for await value in stream {
                    await onEach?(value)
                    self.values.withLock { $0.append(value) }
                }
            }
        }
    }

    var all: [Value] { values.withLock { $0 } }

    /// Waits (bounded by 60 s, which only a failing test waits out) until a recorded value
    /// satisfies `condition`.
    func wait(for condition: (Value) -> Bool) async throws -> Value {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let match = all.last(where: condition) { return match }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("no state matched in time; states: \(all)")
        throw CancellationError()
    }

    deinit { task.withLock { $0?.cancel() } }
}

@Suite("View models")
struct ViewModelTests {
    @Test("a refresh publishes loaded only after the articles are stored (the seed's early table reload)")
    func loadedOnlyAfterDataIsStored() async throws {
        try await withTemporaryDatabase { database in
            // Built here, not with subscribedService: the recorder's closure captures `service`,
            // and passing it through a helper first crashes Swift 6.3.1's SendNonSendable pass.
            let server = FakeFeedServer()
            server.serve("https://v.test/feed", body: rss(title: "V", count: 2))
            let service = makeService(database, server)
            _ = try await service.subscribe(url: #require(URL(string: "https://v.test/feed")))
            let viewModel = FeedListViewModel(service: service)
            await viewModel.load()
            server.serve("https://v.test/feed", body: rss(title: "V", count: 5))
            let observedCounts = Mutex<[String]>([])
            let recorder = StateRecorder(viewModel.states()) { state in
                // Whenever loaded is published, the database must already hold what it shows.
                guard case .loaded(let content) = state, let row = content.orderedRows.first else { return }
                let stored = (try? await service.articleCounts()[row.id]?.total) ?? -1
                observedCounts.withLock { $0.append("shown \(row.counts.total) stored \(stored)") }
            }
            _ = try await viewModel.refresh()
            _ = try await recorder.wait {
                if case .loaded(let c) = $0 { c.orderedRows.first?.counts.total == 5 } else { false }
            }
            let states = recorder.all
            let loadingIndex = try #require(states.firstIndex { $0.isLoading })
            let loadedIndex = try #require(states.lastIndex { if case .loaded = $0 { true } else { false } })
            #expect(loadingIndex < loadedIndex)
            #expect(observedCounts.withLock { $0 }.last == "shown 5 stored 5")
            #expect(states[loadingIndex].content?.orderedRows.first?.counts.total == 2)  // the old list stays up
        }
    }

    @Test("a failed refresh keeps the last good snapshot")
    func failureKeepsStaleContent() async throws {
        try await withTemporaryDatabase { database in
            let served = try await subscribedService(database, [("https://v.test/feed", "V", 2)])
            let service = served.service
            let viewModel = FeedListViewModel(service: service)
            await viewModel.load()
            await #expect(throws: FeedError.notFound(entity: "feed", id: 42)) { try await viewModel.refresh([42]) }
            guard case .failed(let message, let stale) = viewModel.state else {
                Issue.record("expected failed, got \(viewModel.state)")
                return
            }
            #expect(message == "no feed #42")
            #expect(stale?.orderedRows.map(\.feed.title) == ["V"])
        }
    }

    @Test("the feed list follows other writers: an unread count change is a reload, a removed feed a delete")
    func feedListFollowsChanges() async throws {
        try await withTemporaryDatabase { database in
            let served = try await subscribedService(
                database, [("https://a.test/f", "A", 3), ("https://b.test/f", "B", 1)])
            let server = served.server
            let service = served.service
            let feeds = served.feeds
            let (a, b) = (feeds[0], feeds[1])
            let viewModel = FeedListViewModel(service: service)
            await viewModel.load()
            viewModel.startObserving()
            let recorder = StateRecorder(viewModel.states())
            let other = makeService(database, server)  // another writer on the same database
            try await other.markAllRead(feedID: #require(a.id))
            let afterRead = try await recorder.wait {
                if case .loaded(let c) = $0 { c.rows[a.id ?? 0]?.counts.unread == 0 } else { false }
            }
            #expect(afterRead.content?.difference.reloaded == [a.id].compactMap { $0 })
            #expect(afterRead.content?.difference.deleted.isEmpty == true)
            try await other.unsubscribe(id: #require(b.id))
            let afterRemove = try await recorder.wait { $0.content?.rows.count == 1 }
            #expect(afterRemove.content?.difference.deleted == [b.id].compactMap { $0 })
            viewModel.stopObserving()
        }
    }

    @Test(
        "the article list pages over the results controller and follows changes: read items leave an unread list, a changed title is a reload"
    )
    func articleListPagesAndFollowsChanges() async throws {
        try await withTemporaryDatabase { database in
            let served = try await subscribedService(database, [("https://a.test/f", "A", 7)])
            let server = served.server
            let service = served.service
            let feeds = served.feeds
            let feed = feeds[0]
            let viewModel = ArticleListViewModel(service: service, pageSize: 3)
            await viewModel.load(ArticleQuery(feedID: feed.id, unreadOnly: true))
            let first = try #require(viewModel.state.content)
            #expect(first.orderedRows.count == 3 && first.total == 7)
            #expect(first.orderedRows.map(\.article.title) == ["Item 6", "Item 5", "Item 4"])  // newest first
            await viewModel.loadNextPage()
            #expect(viewModel.state.content?.orderedRows.count == 6)
            #expect(viewModel.state.content?.difference.inserted.count == 3)
            await viewModel.showPage(3, of: ArticleQuery(feedID: feed.id, unreadOnly: true))
            #expect(viewModel.state.content?.orderedRows.map(\.article.title) == ["Item 0"])

            await viewModel.load(ArticleQuery(feedID: feed.id, unreadOnly: true))
            await viewModel.startObserving()
            let recorder = StateRecorder(viewModel.states())
            let top = try #require(first.orderedRows.first)
            let other = makeService(database, server)
            try await other.mark([top.id], .read)
            let afterRead = try await recorder.wait { $0.content?.difference.deleted == [top.id] }
            #expect(afterRead.content?.orderedRows.map(\.article.title) == ["Item 5", "Item 4", "Item 3"])
            #expect(afterRead.content?.total == 6)

            // The feed changes a title: the row is reloaded in place, not deleted and inserted.
            let changed = String(decoding: rss(title: "A", count: 7), as: UTF8.self)
                .replacingOccurrences(of: "<title>Item 5</title>", with: "<title>Item 5 (updated)</title>")
            server.serve("https://a.test/f", body: Data(changed.utf8))
            _ = try await other.refresh()
            let afterTitle = try await recorder.wait { $0.content?.difference.reloaded.isEmpty == false }
            #expect(afterTitle.content?.orderedRows.first?.article.title == "Item 5 (updated)")
            #expect(afterTitle.content?.difference.inserted.isEmpty == true)
            #expect(afterTitle.content?.difference.deleted.isEmpty == true)
        }
    }

    @Test("opening an article marks it read, sends an analytics event and routes to it")
    func openingAnArticle() async throws {
        final class Recorder: AnalyticsSink, Router {
            let events = Mutex<[String]>([])
            func send(_ event: any AnalyticsEvent) { events.withLock { $0.append(event.name + "\(event.parameters)") } }
            func route(_ intent: NavigationIntent) async { events.withLock { $0.append("\(intent)") } }
        }
        try await withTemporaryDatabase { database in
            let served = try await subscribedService(database, [("https://a.test/f", "A", 1)])
            let service = served.service
            let recorder = Recorder()
            let viewModel = ArticleListViewModel(service: service, analytics: recorder, router: recorder)
            await viewModel.load(ArticleQuery())
            let id = try #require(viewModel.state.content?.orderedRows.first?.id)
            let opened = try await viewModel.open(id: id)
            #expect(opened.status.isRead)
            #expect(try await service.article(id: id).status.isRead)
            #expect(
                recorder.events.withLock { $0 } == [
                    "article_list_viewed[\"count\": \"1\"]", "article_opened[\"id\": \"\(id)\"]",
                    "showArticle(id: \(id))",
                ])
        }
    }
}
