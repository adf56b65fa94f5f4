import Foundation
import Models
import Networking
import Storage
import Synchronization
import Testing

@testable import Feed

extension ViewState {
    /// The content of a `.loaded` state; `nil` for any other.
    var loaded: Content? {
        if case .loaded(let content) = self { content } else { nil }
    }
}

/// Each view-model test reads the states in the order they were published, one at a time from
/// the view model's own stream (which keeps every state until it is read), and checks each.
@Suite("View models", .timeLimit(.minutes(5)))
struct ViewModelTests {
    @Test("a refresh publishes loaded only after the articles are stored (the seed's early table reload)")
    func loadedOnlyAfterDataIsStored() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://v.test/feed", body: rss(title: "V", count: 2))
            let service = makeService(database, server)
            let feed = try await service.subscribe(url: #require(URL(string: "https://v.test/feed"))).feed
            let id = try #require(feed.id)
            let viewModel = FeedListViewModel(service: service)
            var states = viewModel.states().makeAsyncIterator()
            #expect(await states.next() == .idle)
            await viewModel.load()
            #expect(await states.next() == .loading(previous: nil))
            let first = try #require(await states.next()?.loaded)
            #expect(first.orderedRows.map(\.feed.title) == ["V"])
            #expect(first.rows[id]?.counts == ArticleCounts(unread: 2, total: 2))

            server.serve("https://v.test/feed", body: rss(title: "V", count: 5))
            _ = try await viewModel.refresh()
            // The old list stays up while loading; the next state is the list with the new
            // articles stored, never the old one (or one read before the merge) as loaded.
            #expect(await states.next() == .loading(previous: first))
            let refreshed = try #require(await states.next()?.loaded)
            #expect(refreshed.rows[id]?.counts == ArticleCounts(unread: 5, total: 5))
            #expect(refreshed.difference.reloaded == [id])
            #expect(refreshed.difference.inserted.isEmpty && refreshed.difference.deleted.isEmpty)
            // And nothing was published after it.
            #expect(viewModel.state == .loaded(refreshed))
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
            let shown = try #require(viewModel.state.loaded)
            viewModel.startObserving()
            var states = viewModel.states().makeAsyncIterator()
            #expect(await states.next() == .loaded(shown))
            let (aID, bID) = (try #require(a.id), try #require(b.id))
            let other = makeService(database, server)  // another writer on the same database
            // One change, one reload: A's unread count drops to 0, A alone reloaded.
            try await other.markAllRead(feedID: aID)
            let afterRead = try #require(await states.next()?.loaded)
            #expect(afterRead.rows[aID]?.counts == ArticleCounts(unread: 0, total: 3))
            #expect(afterRead.rows[bID]?.counts == ArticleCounts(unread: 1, total: 1))
            #expect(afterRead.difference.reloaded == [aID])
            #expect(afterRead.difference.inserted.isEmpty && afterRead.difference.deleted.isEmpty)
            // Then B goes: a delete, A's row as it was.
            try await other.unsubscribe(id: bID)
            let afterRemove = try #require(await states.next()?.loaded)
            #expect(afterRemove.orderedRows.map(\.feed.title) == ["A"])
            #expect(afterRemove.difference.deleted == [bID])
            #expect(afterRemove.difference.reloaded.isEmpty && afterRemove.difference.inserted.isEmpty)
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
            var states = viewModel.states().makeAsyncIterator()
            let shown = try #require(await states.next()?.loaded)
            #expect(shown.orderedRows.map(\.article.title) == ["Item 6", "Item 5", "Item 4"])
            let top = try #require(first.orderedRows.first)
            let other = makeService(database, server)
            // Read elsewhere: it leaves the unread list, the next one moves up.
            try await other.mark([top.id], .read)
            let afterRead = try #require(await states.next()?.loaded)
            #expect(afterRead.difference.deleted == [top.id])
            #expect(afterRead.orderedRows.map(\.article.title) == ["Item 5", "Item 4", "Item 3"])
            #expect(afterRead.total == 6)

            // The feed changes a title: the row is reloaded in place, not deleted and inserted.
            let changed = String(decoding: rss(title: "A", count: 7), as: UTF8.self)
                .replacingOccurrences(of: "<title>Item 5</title>", with: "<title>Item 5 (updated)</title>")
            server.serve("https://a.test/f", body: Data(changed.utf8))
            _ = try await other.refresh()
            let afterTitle = try #require(await states.next()?.loaded)
            let item5 = try #require(afterRead.orderedRows.first?.id)
            #expect(afterTitle.orderedRows.first?.article.title == "Item 5 (updated)")
            #expect(afterTitle.difference.reloaded == [item5])
            #expect(afterTitle.difference.inserted.isEmpty)
            #expect(afterTitle.difference.deleted.isEmpty)
            await viewModel.stopObserving()
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
