import Foundation
import Models
import Storage

extension FeedService {
    /// Refreshes the given feeds, or every feed, with at most `maxConcurrentRefreshes` in flight,
    /// reporting each feed as it finishes. One feed's failure never stops the others; cancelling
    /// the calling task stops the work in flight (each feed's writes are whole or absent).
    ///
    /// - Throws: `.notFound` for an id that is not subscribed (before anything is fetched).
    public func refresh(
        _ feedIDs: [Int64]? = nil, progress: (@Sendable (RefreshEvent) -> Void)? = nil
    ) async throws(FeedError) -> RefreshSummary {
        let targets: [FeedSource]
        if let feedIDs {
            var chosen: [FeedSource] = []
            for id in feedIDs where !chosen.contains(where: { $0.id == id }) {
                chosen.append(try await subscription(id: id))
            }
            targets = chosen
        } else {
            targets = try await subscriptions()
        }
        progress?(.started(total: targets.count))
        let limit = concurrencyLimit
        var summary = RefreshSummary()
        var completed = 0
        await withTaskGroup(of: (FeedSource, FeedRefreshOutcome).self) { group in
            var pending = targets.makeIterator()
            for _ in 0..<limit {
                guard let feed = pending.next() else { break }
                group.addTask { (feed, await self.refreshOne(feed)) }
            }
            while let (feed, outcome) = await group.next() {
                completed += 1
                summary.record(outcome, feed: feed)
                progress?(.feedFinished(feed: feed, outcome: outcome, completed: completed, total: targets.count))
                if Task.isCancelled {
                    summary.cancelled = true
                    group.cancelAll()
                } else if let next = pending.next() {
                    group.addTask { (next, await self.refreshOne(next)) }
                }
            }
        }
        if Task.isCancelled { summary.cancelled = true }
        summary.failed.sort { $0.feedID < $1.feedID }  // feeds finish in any order; report them in id order
        progress?(.finished(summary))
        return summary
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

    /// Refreshes one feed: conditional GET, validators stored, parsing skipped when the body is
    /// the same, articles merged, the result recorded. Runs off the actor so feeds parse in
    /// parallel.
    nonisolated func refreshOne(_ feed: FeedSource) async -> FeedRefreshOutcome {
        let now = self.now()
        if feed.isGone { return .skipped(reason: FeedError.gone.errorDescription ?? "gone") }
        if let until = feed.retryAfter, until > now {
            return .skipped(reason: "the server asked to wait until \(until.formatted(.iso8601))")
        }
        if let host = feed.url.host, let until = await deferral(for: host, now: now) {
            return .skipped(reason: "\(host) asked to wait until \(until.formatted(.iso8601))")
        }
        var updated = feed
        updated.lastRefreshedAt = now
        updated.retryAfter = nil
        do throws(FeedError) {
            switch try await fetcher.fetch(feed.url, etag: feed.etag, lastModified: feed.lastModified) {
            case .notModified:
                updated.lastResult = .notModified
                await save(updated)
                return .notModified
            case .fetched(let document):
                // The validators are kept whatever the body turns out to be.
                updated.etag = document.etag
                updated.lastModified = document.lastModified
                if let moved = document.permanentRedirect, await canMove(feed, to: moved) { updated.url = moved }
                let hash = SHA256.hex(of: document.body)
                if hash == feed.contentHash {
                    updated.lastResult = .notModified
                    await save(updated)
                    return .notModified
                }
                let parsed: ParsedFeed
                do {
                    parsed = try parse(document.body, document.url, document.charset)
                } catch {
                    // Forget the validators so the next refresh fetches the body again.
                    updated.etag = nil
                    updated.lastModified = nil
                    throw FeedError.parse(error)
                }
                guard let feedID = feed.id else { throw FeedError.notFound(entity: "feed", id: 0) }
                let merge: MergeResult
                do {
                    merge = try await articles.merge(
                        parsed.items.map { $0.article(feedID: feedID) }, intoFeed: feedID, now: now)
                } catch {
                    throw FeedError.storage(error.errorDescription ?? "\(error)")
                }
                updated.contentHash = hash
                updated.format = parsed.format
                if updated.homePageURL == nil { updated.homePageURL = parsed.link }
                updated.lastResult = .ok
                await save(updated)
                return .updated(newItems: merge.inserted.count, updatedItems: merge.updated.count)
            }
        } catch .cancelled {
            return .failed(.cancelled)
        } catch {
            if Task.isCancelled { return .failed(.cancelled) }
            if case .gone = error { updated.isGone = true }
            if case .rateLimited(_, let until?) = error {
                updated.retryAfter = until
                if let host = feed.url.host { await deferHost(host, until: until) }
            }
            updated.lastResult = .failed(reason: error.errorDescription ?? "\(error)")
            await save(updated)
            return .failed(error)
        }
    }

    private func deferral(for host: String, now: Date) -> Date? {
        guard let until = deferredHosts[host], until > now else { return nil }
        return until
    }

    private func deferHost(_ host: String, until: Date) {
        deferredHosts[host] = max(deferredHosts[host] ?? until, until)
    }

    /// A permanent redirect moves the subscription unless another one already has that URL.
    private nonisolated func canMove(_ feed: FeedSource, to url: URL) async -> Bool {
        guard url != feed.url, let other = try? await feeds.feed(url: url) else { return url != feed.url }
        return other.id == feed.id
    }

    /// Records the feed's new state; a feed removed meanwhile is left alone.
    private nonisolated func save(_ feed: FeedSource) async {
        try? await feeds.update(feed, source: .app)
    }
}
