public import Models

/// One row of the subscription list.
public struct FeedRow: Sendable, Hashable, Identifiable {
    /// The subscription.
    public var feed: FeedSource
    /// Unread and total article counts.
    public var counts: ArticleCounts
    public var id: Int64 { feed.id ?? 0 }
}

/// The subscriptions with their unread counts and last refresh result, kept current as other
/// writers change them.
///
/// `state` is readable at any time; `states()` gives each subscriber its own stream. A load
/// publishes `.loading` first and `.loaded` only once the data it shows has been read from
/// storage, so `refresh()` can never show a list before its articles are stored.
public final class FeedListViewModel: Sendable {
    private let service: any FeedProviding
    private let analytics: any AnalyticsSink
    private let publisher = StatePublisher<ViewState<ListContent<FeedRow>>>(.idle)
    private let observation = ObservationHandle()

    public init(service: any FeedProviding, analytics: any AnalyticsSink = NoAnalytics()) {
        self.service = service
        self.analytics = analytics
    }

    deinit { observation.cancel() }

    public var state: ViewState<ListContent<FeedRow>> { publisher.value }

    /// The states from now on, starting with the current one.
    public func states() -> AsyncStream<ViewState<ListContent<FeedRow>>> { publisher.values() }

    /// Reads the subscriptions and publishes them.
    public func load() async {
        publisher.send(.loading(previous: state.content))
        await reload()
    }

    /// Every feed with its counts, in list order, read once without touching `state`. It builds
    /// no snapshot and no difference. (A listing printed once and thrown away, as `feed list`
    /// is, reads `FeedService.summaries()`: no `FeedSource` per feed.)
    public func listing() async throws(FeedError) -> [FeedRow] {
        try await readRows().map(\.row)
    }

    /// Refreshes feeds through the service, then shows the stored result. `progress` sees each
    /// feed as it finishes.
    @discardableResult
    ///
    /// - Throws: what stopped the refresh from starting (an unknown feed id); the state is then
    ///   `.failed` with the last good list.
    public func refresh(
        _ feedIDs: [Int64]? = nil, progress: (@Sendable (RefreshEvent) -> Void)? = nil
    ) async throws(FeedError) -> RefreshSummary {
        publisher.send(.loading(previous: state.content))
        do {
            let summary = try await service.refresh(feedIDs, progress: progress)
            analytics.send(FeedsRefreshed(feeds: summary.refreshed, newItems: summary.newItems))
            await reload()
            return summary
        } catch {
            publisher.send(.failed(message: error.errorDescription ?? "\(error)", stale: state.content))
            throw error
        }
    }

    /// Follows the store's changes and reloads when feeds or articles change.
    public func startObserving() {
        let changes = service.changes()
        observation.replace(
            Task { [weak self] in
                for await _ in changes {
                    guard let self else { return }
                    await self.reload()
                }
            })
    }

    /// Stops following changes.
    public func stopObserving() { observation.cancel() }

    private func readRows() async throws(FeedError) -> [(id: Int64, row: FeedRow)] {
        let all = try await service.subscriptions()
        let allCounts = try await service.articleCounts()
        return all.map { feed in
            (
                id: feed.id ?? 0,
                row: FeedRow(feed: feed, counts: allCounts[feed.id ?? 0] ?? ArticleCounts(unread: 0, total: 0))
            )
        }
    }

    private func reload() async {
        do {
            let rows = try await readRows()
            publisher.send(.loaded(try ListContent.make(rows, previous: state.content)))
        } catch let error as FeedError {
            publisher.send(.failed(message: error.errorDescription ?? "\(error)", stale: state.content))
        } catch {
            publisher.send(.failed(message: "\(error)", stale: state.content))
        }
    }
}
