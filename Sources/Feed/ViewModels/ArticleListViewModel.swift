public import Models

/// A paged list of articles for a filter (feed, unread, starred, search text, since a date),
/// newest first, kept current as other writers change them.
///
/// It reads only the rows it shows (a page, or the pages scrolled through), so a list of 100,000
/// articles costs a page. `state` is readable at any time; `states()` gives each subscriber its
/// own stream. A changed article is a reload in the published difference; a deleted one
/// disappears.
public actor ArticleListViewModel {
    private let service: any FeedProviding
    private let analytics: any AnalyticsSink
    private let router: (any Router)?
    private let publisher = StatePublisher<ViewState<ListContent<StoredArticle>>>(.idle)
    private let observation = ObservationHandle()
    /// Rows per page.
    public let pageSize: Int
    private var isShowing = false
    private var window: Range<Int> = 0..<0
    /// The filter shown.
    public private(set) var query = ArticleQuery()

    public init(
        service: any FeedProviding, pageSize: Int = 20, analytics: any AnalyticsSink = NoAnalytics(),
        router: (any Router)? = nil
    ) {
        self.service = service
        self.pageSize = max(1, pageSize)
        self.analytics = analytics
        self.router = router
    }

    deinit { observation.cancel() }

    public nonisolated var state: ViewState<ListContent<StoredArticle>> { publisher.value }

    /// The states from now on, starting with the current one.
    public nonisolated func states() -> AsyncStream<ViewState<ListContent<StoredArticle>>> { publisher.values() }

    /// Shows the first page of `query`.
    public func load(_ query: ArticleQuery) async {
        await show(query, window: 0..<pageSize)
    }

    /// Shows page `page` (1-based) of `query` alone, as a terminal list does.
    public func showPage(_ page: Int, of query: ArticleQuery) async {
        // Saturating: a page far past the end is an empty page, never an overflow.
        let (product, overflow) = max(0, page - 1).multipliedReportingOverflow(by: pageSize)
        let start = overflow ? Int.max - pageSize : min(product, Int.max - pageSize)
        await show(query, window: start..<(start + pageSize))
    }

    /// Extends the list by one page, as a scrolling list does.
    public func loadNextPage() async {
        guard isShowing else { return }
        let (end, overflow) = window.upperBound.addingReportingOverflow(pageSize)
        window = window.lowerBound..<(overflow ? Int.max : end)
        await publishRows()
    }

    /// Opens an article: marks it read, reports it, and asks the router to show it.
    public func open(id: Int64) async throws(FeedError) -> StoredArticle {
        let article = try await service.open(articleID: id)
        analytics.send(ArticleOpened(id: id))
        await router?.route(.showArticle(id: id))
        return article
    }

    /// Follows the store's changes and updates the list when articles change or a feed goes.
    public func startObserving() {
        let changes = service.changes()
        observation.replace(
            Task { [weak self] in
                for await change in changes where !change.articles.isEmpty || !change.feeds.deleted.isEmpty {
                    guard let self else { return }
                    await self.publishRows()
                }
            })
    }

    /// Stops following changes.
    public func stopObserving() { observation.cancel() }

    private func show(_ query: ArticleQuery, window: Range<Int>) async {
        publisher.send(.loading(previous: state.content))
        self.query = query
        self.window = window
        isShowing = true
        await publishRows(previous: nil)
        if case .loaded(let content) = state { analytics.send(ArticleListViewed(count: content.rows.count)) }
    }

    /// Reads and publishes the rows of the window; rows that changed since `previous` (the
    /// content shown, unless given) are reloads.
    private func publishRows(previous: ListContent<StoredArticle>?? = .none) async {
        guard isShowing else { return }
        let before: ListContent<StoredArticle>? = previous ?? state.content
        let query = self.query
        let window = self.window
        let total: Int
        let page: [StoredArticle]
        do throws(FeedError) {
            let read = try await service.page(matching: query, limit: window.count, offset: window.lowerBound)
            (page, total) = (read.articles, read.total)
        } catch {
            publisher.send(.failed(message: error.errorDescription ?? "\(error)", stale: state.content))
            return
        }
        // A filter or window shown meanwhile wins.
        guard query == self.query, window == self.window else { return }
        do throws(SnapshotError) {
            publisher.send(
                .loaded(try ListContent.make(page.map { (id: $0.id, row: $0) }, previous: before, total: total)))
        } catch {
            publisher.send(.failed(message: "\(error)", stale: state.content))
        }
    }
}
