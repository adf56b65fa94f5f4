public import Foundation
import Models
internal import Storage
import Store

extension FeedService {
    /// Where the setting that keeps the last refresh's first new article is kept.
    static let lastRefreshMarkKey = "state.last-refresh-mark"

    /// The id after which the articles of the last refresh that brought any start (`items
    /// --new`); `nil` before the first.
    public func lastRefreshMark() async throws(FeedError) -> Int64? {
        try await storage { () async throws(StorageError) in
            try await store.settings.value(Self.lastRefreshMarkKey).flatMap { Int64($0) }
        }
    }

    /// Refreshes the given feeds, or every feed, with at most `maxConcurrentRefreshes` in flight,
    /// reporting each feed once its writes are done (a feed with nothing new waits up to 50 ms to
    /// be stored with others). One feed's failure never stops the others; cancelling the calling
    /// task stops the work in flight (each feed's writes are whole or absent, and a feed
    /// answered before the cancel is stored).
    ///
    /// Refreshing every feed skips those that are gone (410) or whose server asked to wait
    /// (`Retry-After`, capped at `maxRetryAfter`); naming a feed fetches it whatever it said
    /// last, and a feed that answers again is polled again (`RefreshSummary.resumed`).
    ///
    /// - Throws: `.notFound` for an id that is not subscribed (before anything is fetched).
    public func refresh(
        _ feedIDs: [Int64]? = nil, progress: (@Sendable (RefreshEvent) -> Void)? = nil
    ) async throws(FeedError) -> RefreshSummary {
        try await refresh(feedIDs, due: nil, progress: progress)
    }

    /// An automatic refresh (an interactive session's, every `refresh-interval`): the feeds whose
    /// last refresh is at least `due` seconds ago and longer than their own pace
    /// (`FeedSource.pace`: what the feed or its server says of how often it changes); the others
    /// are left alone, not counted.
    public func refresh(due: TimeInterval, progress: (@Sendable (RefreshEvent) -> Void)? = nil)
        async throws(FeedError) -> RefreshSummary
    {
        try await refresh(nil, due: due, progress: progress)
    }

    private func refresh(
        _ feedIDs: [Int64]?, due: TimeInterval?, progress: (@Sendable (RefreshEvent) -> Void)?
    ) async throws(FeedError) -> RefreshSummary {
        var targets: [FeedSource]
        if let feedIDs {
            var chosen: [FeedSource] = []
            for id in feedIDs where !chosen.contains(where: { $0.id == id }) {
                chosen.append(try await subscription(id: id))
            }
            targets = chosen
        } else {
            targets = try await subscriptions()
        }
        // A feed account's feeds are its server's to fetch: they come with the account's sync,
        // never from the feed's own host.
        targets = targets.filter { $0.accountID == nil }
        if let due {
            let now = self.now()
            targets = targets.filter { feed in
                guard let last = feed.lastRefreshedAt else { return true }
                return now.timeIntervalSince(last) >= max(due, feed.pace ?? 0)
            }
        }
        progress?(.started(total: targets.count))
        // The articles this refresh adds come after this id: rules look at those, and
        // `items --new` lists them.
        let mark = try await storage { () async throws(StorageError) in try await articles.lastArticleID() }
        let hasRules = !(try await rules().isEmpty)
        let limit = concurrencyLimit
        let heldDelay = self.heldDelay
        let named = feedIDs != nil
        // The search index is built while the feeds merge, by its own writer (in its own file),
        // on the core the merges leave idle: what is left to index at the end is the last few
        // feeds' articles, not every one.
        // Cancelled when the merges end, which ends its pause at once; each batch runs in a task
        // of its own, which the cancellation does not reach (a cancelled write rolls back).
        let index = articles
        let indexesSearch = self.indexesSearch
        let indexer = Task {
            while indexesSearch, !Task.isCancelled {
                _ = await Task { try? await index.updateSearchIndex(batchSize: Self.indexBatchDuringRefresh) }.value
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        var summary = await withTaskGroup(of: RefreshStep.self, returning: RefreshSummary.self) { group in
            var summary = RefreshSummary()
            var completed = 0
            var pending = targets.makeIterator()
            var inFlight = 0
            // Feeds the server had nothing new for, with their new state: stored for several at
            // once (see `FeedRepository.update`), then reported.
            var held: [(feed: FeedSource, state: FeedSource)] = []
            var ticking = false
            func start(_ feed: FeedSource) {
                inFlight += 1
                group.addTask { .refreshed(feed, await self.refreshOne(feed, named: named)) }
            }
            func report(_ feed: FeedSource, _ outcome: FeedRefreshOutcome) {
                completed += 1
                summary.record(outcome, feed: feed)
                progress?(.feedFinished(feed: feed, outcome: outcome, completed: completed, total: targets.count))
            }
            // The store runs beside the feeds, so that a batch waiting for the writer (behind
            // a large feed's merge) never stops the next feeds from starting.
            func storeHeld() {
                guard !held.isEmpty else { return }
                let batch = held
                held = []
                group.addTask { .stored(batch.map(\.feed), await self.store(batch.map(\.state))) }
            }
            for _ in 0..<limit {
                guard let feed = pending.next() else { break }
                start(feed)
            }
            while let step = await group.next() {
                switch step {
                case .refreshed(let feed, .done(let outcome)):
                    inFlight -= 1
                    report(feed, outcome)
                case .refreshed(let feed, .notModified(let state)):
                    inFlight -= 1
                    held.append((feed, state))
                case .stored(let batch, let failure):
                    for feed in batch { report(feed, failure.map { .failed($0) } ?? .notModified) }
                case .tick:
                    ticking = false
                    storeHeld()
                }
                if case .refreshed = step {
                    if Task.isCancelled {
                        summary.cancelled = true
                        group.cancelAll()
                    } else if let next = pending.next() {
                        start(next)
                    }
                }
                // Held feeds wait for a full batch, for the last feed in flight, or for a tick:
                // a slow server never holds back the report of a fast one for long.
                if held.count >= Self.heldBatch || inFlight == 0 { storeHeld() }
                if held.isEmpty {
                    // Only the tick is left (and stores, which a cancel does not stop): wake it.
                    if ticking && inFlight == 0 { group.cancelAll() }
                } else if !ticking {
                    ticking = true
                    group.addTask {
                        try? await Task.sleep(for: heldDelay)
                        return .tick
                    }
                }
            }
            return summary
        }
        // The indexer stops after the batch it is on, and the index takes the rest of what the
        // merges stored while the marks below are written: it has its own writer and file (see
        // `SearchIndexFile`), so the two go on beside each other, on both cores.
        indexer.cancel()
        if Task.isCancelled { summary.cancelled = true }
        let finishesIndex = indexesSearch && !summary.cancelled
        async let indexingFailure = finishesIndex ? Self.updateSearchIndex(index) : nil
        if finishesIndex, summary.newItems > 0 { progress?(.indexing(newItems: summary.newItems)) }
        if summary.newItems > 0 {
            do {
                summary.arrivedRead = try await storage { () async throws(StorageError) in
                    try await articles.arrivedRead(after: mark)
                }
                if !summary.cancelled, hasRules { summary.rules = try await applyRules(after: mark) }
                try await storage { () async throws(StorageError) in
                    try await store.settings.set(Self.lastRefreshMarkKey, to: String(mark))
                }
            } catch {
                // An interrupt here stops the marks, not the refresh's articles, which are stored.
                if Task.isCancelled { summary.cancelled = true } else { summary.storingFailed = true }
            }
            // The merges' log goes into the articles' file while the index catches up, so that
            // the checkpoint at the end (which waits for the index's reads) has nothing to copy.
            if finishesIndex { try? await store.checkpoint(truncating: false) }
        }
        await indexer.value
        summary.searchIndexFailure = await indexingFailure
        if Task.isCancelled { summary.cancelled = true }
        if !summary.cancelled {
            // Then what retention lets go (nothing to do without a policy).
            do {
                summary.purged = try await purge()
            } catch {
                summary.storingFailed = true
            }
            // Start the next process with an empty write-ahead log, not this refresh's. A checkpoint
            // that cannot run (a reader in another process) loses nothing: SQLite checkpoints later.
            if summary.newItems > 0 { try? await store.checkpoint() }
        }
        summary.failed.sort { $0.feedID < $1.feedID }  // feeds finish in any order; report them in id order
        progress?(.finished(summary))
        return summary
    }

    /// Brings the search index up to date; what went wrong, if anything. An interrupt is no
    /// failure: the batches done are kept, and the next search indexes the rest.
    private static func updateSearchIndex(_ articles: ArticleRepository) async -> String? {
        do {
            try await articles.updateSearchIndex()
            return nil
        } catch {
            if Task.isCancelled { return nil }
            return FeedError(error).errorDescription ?? "\(error)"
        }
    }

    /// How many articles one transaction of the index writer takes while a refresh merges.
    static let indexBatchDuringRefresh = 2_000

    /// What one child task of a refresh ended with.
    private enum RefreshStep: Sendable {
        case refreshed(FeedSource, FeedRefreshResult)
        /// Held feeds' states were stored (or not, and why): report them.
        case stored([FeedSource], FeedError?)
        /// Time to store the held feeds' states.
        case tick
    }

    /// The most feeds whose states are stored in one transaction.
    static let heldBatch = 64

    /// What refreshing one feed ended with: an outcome whose writes are done, or "not modified"
    /// with the feed's new state still to store (the refresh stores several at once).
    enum FeedRefreshResult: Sendable {
        case done(FeedRefreshOutcome)
        case notModified(storing: FeedSource)
    }

    /// Stores the states of feeds that were not modified, in one transaction; returns why it
    /// failed, or `nil`. Feeds removed meanwhile are left alone. The write is not cancelled with
    /// the refresh: these feeds were answered before any cancel, as a feed saving its own state
    /// would have been stored.
    private nonisolated func store(_ states: [FeedSource]) async -> FeedError? {
        let write = Task { () async -> StorageError? in
            do throws(StorageError) {
                try await feeds.update(states, source: .app)
                return nil
            } catch {
                return error
            }
        }
        return await write.value.map(FeedError.init)
    }

    /// The refresh as a stream of events, ending with `.finished` (or `.failedToStart`).
    /// Ending the stream's iteration early cancels the refresh.
    public nonisolated func refreshEvents(_ feedIDs: [Int64]? = nil) -> AsyncStream<RefreshEvent> {
        AsyncStream { continuation in
            let work = Task {
                do throws(FeedError) {
                    _ = try await self.refresh(feedIDs) { continuation.yield($0) }
                } catch {
                    continuation.yield(.failedToStart(error))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}
