import Foundation
import Models
import Synchronization
import Testing

@testable import Feed

/// The view models over in-memory providers: no SQLite, no HTTP (the end-to-end view-model
/// tests over the real service are in `ViewModelTests`).
@Suite("View models in memory", .timeLimit(.minutes(10)))
struct InMemoryViewModelTests {
    let feedA = FeedSource(id: 1, url: URL(string: "https://a.test/f")!, title: "A")
    let feedB = FeedSource(id: 2, url: URL(string: "https://b.test/f")!, title: "B")

    @Test("the feed list publishes loading, then the feeds with their counts; a failure keeps the last list")
    func feedList() async throws {
        let provider = ScriptedFeeds()
        provider.state.withLock {
            $0.feeds = [feedA, feedB]
            $0.counts = [1: ArticleCounts(unread: 2, total: 5)]
        }
        let model = FeedListViewModel(service: provider)
        var states = model.states().makeAsyncIterator()
        #expect(await states.next() == .idle)
        await model.load()
        #expect(await states.next() == .loading(previous: nil))
        let list = try #require(await states.next()?.content)
        #expect(list.orderedRows.map(\.feed.title) == ["A", "B"])
        #expect(
            list.orderedRows.map(\.counts) == [ArticleCounts(unread: 2, total: 5), ArticleCounts(unread: 0, total: 0)])

        provider.state.withLock { $0.failure = .storage(.sqlite(message: "disk I/O error")) }
        await model.load()
        #expect(await states.next() == .loading(previous: list))
        #expect(await states.next() == .failed(message: "database error: disk I/O error", stale: list))
    }

    @Test("a one-shot listing gives the feeds with their counts in order and leaves the state alone")
    func feedListing() async throws {
        let provider = ScriptedFeeds()
        provider.state.withLock {
            $0.feeds = [feedA, feedB]
            $0.counts = [2: ArticleCounts(unread: 1, total: 3)]
        }
        let model = FeedListViewModel(service: provider)
        let rows = try await model.listing()
        #expect(rows.map(\.feed.title) == ["A", "B"])
        #expect(rows.map(\.counts) == [ArticleCounts(unread: 0, total: 0), ArticleCounts(unread: 1, total: 3)])
        #expect(model.state == .idle)
        provider.state.withLock { $0.failure = .storage(.sqlite(message: "disk I/O error")) }
        await #expect(throws: FeedError.storage(.sqlite(message: "disk I/O error"))) { try await model.listing() }
        #expect(model.state == .idle)
    }

    @Test("the feed list reloads when the provider announces a change")
    func feedListFollowsChanges() async throws {
        let provider = ScriptedFeeds()
        provider.state.withLock { $0.feeds = [feedA] }
        let model = FeedListViewModel(service: provider)
        await model.load()
        model.startObserving()
        var states = model.states().makeAsyncIterator()
        _ = await states.next()  // the current state
        provider.state.withLock { $0.feeds = [feedA, feedB] }
        provider.announce(FeedChanges(feeds: ChangedIDs(inserted: [2])))
        let after = try #require(await states.next()?.content)
        #expect(after.orderedRows.map(\.feed.title) == ["A", "B"])
        #expect(after.difference.inserted == [2])
        model.stopObserving()
    }

    @Test("a refresh that was not scripted fails the test loudly, not quietly")
    func unscriptedRefreshIsRecorded() async {
        let model = FeedListViewModel(service: ScriptedFeeds())
        await withKnownIssue("the double records the unscripted call") {
            _ = try await model.refresh()
        }
    }

    @Test("the article list asks for one page, extends by a page, and shows page N alone")
    func articlePaging() async throws {
        let provider = ScriptedFeeds()
        provider.state.withLock {
            $0.articles = (1...7).map { storedArticle(Int64($0), title: "Item \($0)", age: Double($0)) }
        }
        let model = ArticleListViewModel(service: provider, pageSize: 3)
        await model.load(ArticleQuery())
        let first = try #require(model.state.content)
        #expect(first.orderedRows.map(\.id) == [1, 2, 3] && first.total == 7)
        await model.loadNextPage()
        #expect(model.state.content?.orderedRows.map(\.id) == [1, 2, 3, 4, 5, 6])
        await model.showPage(3, of: ArticleQuery())
        #expect(model.state.content?.orderedRows.map(\.id) == [7])
        // Only the rows shown were asked for: a page costs a page.
        #expect(
            provider.state.withLock { $0.pageRequests.map { [$0.limit, $0.offset] } } == [[3, 0], [6, 0], [3, 6]])
    }

    @Test("the article list follows changes: a read article leaves an unread list, a changed one is a reload")
    func articleListFollowsChanges() async throws {
        let provider = ScriptedFeeds()
        provider.state.withLock {
            $0.articles = (1...4).map { storedArticle(Int64($0), title: "Item \($0)", age: Double($0)) }
        }
        let model = ArticleListViewModel(service: provider, pageSize: 3)
        await model.load(ArticleQuery(unreadOnly: true))
        await model.startObserving()
        var states = model.states().makeAsyncIterator()
        _ = await states.next()  // the current state

        provider.state.withLock { $0.articles[0].status.isRead = true }
        provider.announce(FeedChanges(articles: ChangedIDs(updated: [1])))
        let afterRead = try #require(await states.next()?.content)
        #expect(afterRead.orderedRows.map(\.id) == [2, 3, 4] && afterRead.total == 3)
        #expect(afterRead.difference.deleted == [1])

        provider.state.withLock { $0.articles[1].article.title = "Item 2 (updated)" }
        provider.announce(FeedChanges(articles: ChangedIDs(updated: [2])))
        let afterTitle = try #require(await states.next()?.content)
        #expect(afterTitle.orderedRows.first?.article.title == "Item 2 (updated)")
        #expect(afterTitle.difference.reloaded == [2])
        #expect(afterTitle.difference.inserted.isEmpty && afterTitle.difference.deleted.isEmpty)
        await model.stopObserving()
    }

    @Test("opening an article goes through the provider, which marks it read")
    func openArticle() async throws {
        let provider = ScriptedFeeds()
        provider.state.withLock { $0.articles = [storedArticle(9, title: "Nine", age: 1)] }
        let model = ArticleListViewModel(service: provider)
        let opened = try await model.open(id: 9)
        #expect(opened.status.isRead && provider.state.withLock { $0.opened } == [9])
        await #expect(throws: FeedError.notFound(entity: "item", id: 10)) { try await model.open(id: 10) }
    }
}
