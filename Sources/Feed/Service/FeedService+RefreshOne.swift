import Foundation
import Models
internal import Storage

/// One feed's refresh: its fetch, parse and merge, and what its server asked for.
extension FeedService {
    /// Refreshes one feed: conditional GET, parsing skipped when the body is the same, articles
    /// merged in the same transaction as the validators and content hash that describe them,
    /// the result recorded; a feed with nothing new returns its state for `refresh` to store
    /// with others. A feed the user `named` is fetched even when it is gone or deferred.
    /// Runs off the actor so feeds parse in parallel.
    nonisolated func refreshOne(_ feed: FeedSource, named: Bool = false) async -> FeedRefreshResult {
        let now = self.now()
        if !named {
            if feed.isGone { return .done(.skipped(reason: FeedError.gone.errorDescription ?? "gone")) }
            if let until = feed.retryAfter, until > now {
                return .done(.skipped(reason: "the server asked to wait until \(until.formatted(.iso8601))"))
            }
            if let host = feed.url.host, let until = await deferral(for: host, now: now) {
                return .done(.skipped(reason: "\(host) asked to wait until \(until.formatted(.iso8601))"))
            }
        }
        // What is stored if the refresh fails: the old validators and content hash, which still
        // describe the stored articles.
        var failed = feed
        failed.lastRefreshedAt = now
        failed.retryAfter = nil
        do throws(FeedError) {
            var fresh = failed
            fresh.isGone = false
            let outcome = try await fetcher.fetch(feed.url, etag: feed.etag, lastModified: feed.lastModified)
            // The server answers: whatever its host asked before is over.
            if let host = feed.url.host { await endDeferral(for: host) }
            switch outcome {
            case .notModified:
                fresh.lastResult = .notModified
                return .notModified(storing: fresh)
            case .fetched(let document):
                fresh.etag = document.etag
                fresh.lastModified = document.lastModified
                if let maxAge = document.maxAge { fresh.pace = max(maxAge, fresh.pace ?? 0) }
                if let moved = document.permanentRedirect, await canMove(feed, to: moved) { fresh.url = moved }
                let hash = BodyDigest.text(of: document.body)
                if hash == feed.contentHash {
                    // The same body as the articles stored: its validators describe them too.
                    fresh.lastResult = .notModified
                    // A feed that moved is saved at once: its new URL could meet another's.
                    guard fresh.url == feed.url else {
                        try await save(fresh)
                        return .done(.notModified)
                    }
                    return .notModified(storing: fresh)
                }
                if mergesInBatches(document) {
                    return .done(
                        try await refreshInBatches(feed, fresh, document, hash: hash, now: now, failed: &failed))
                }
                let parsed: ParsedFeed
                do {
                    parsed = try parse(document.body, document.url, document.charset)
                } catch {
                    // Forget the validators so the next refresh fetches the body again.
                    failed.etag = nil
                    failed.lastModified = nil
                    throw FeedError.parse(error)
                }
                guard let feedID = feed.id else { throw FeedError.notFound(entity: "feed", id: 0) }
                fresh.contentHash = hash
                fresh.format = parsed.format
                fresh.pace = Self.pace(parsed.refreshInterval, document.maxAge)
                if fresh.homePageURL == nil { fresh.homePageURL = parsed.link }
                fresh.lastResult = .ok
                let items = parsed.items.map { $0.article(feedID: feedID) }
                let merge: MergeResult
                do {
                    merge = try await feeds.update(fresh, merging: items, now: now)
                } catch {
                    throw FeedError(error)
                }
                return .done(.updated(newItems: merge.inserted.count, updatedItems: merge.updated.count))
            }
        } catch .cancelled {
            return .done(.failed(.cancelled))
        } catch {
            if Task.isCancelled { return .done(.failed(.cancelled)) }
            if case .gone = error { failed.isGone = true }
            var error = error
            if case .rateLimited(let status, let until?) = error {
                let capped = cappedDeferral(until, now: now)
                failed.retryAfter = capped
                if let host = feed.url.host { await deferHost(host, until: capped) }
                error = .rateLimited(status: status, until: capped)  // the message names the capped time
            }
            failed.lastResult = .failed(reason: error.errorDescription ?? "\(error)")
            do throws(FeedError) {
                try await save(failed)
            } catch let saving {
                if case .storage = error { return .done(.failed(error)) }
                return .done(.failed(saving))
            }
            return .done(.failed(error))
        }
    }

    /// A feed's pace: the longest of what the feed and its server say, capped at a week.
    nonisolated static func pace(_ declared: TimeInterval?, _ maxAge: TimeInterval?) -> TimeInterval? {
        guard let longest = [declared, maxAge].compactMap({ $0 }).max() else { return nil }
        return min(longest, 604_800)
    }

    /// The rest of `refreshOne` for a large document: parsed while it is stored, in batches.
    private nonisolated func refreshInBatches(
        _ feed: FeedSource, _ fresh: FeedSource, _ document: FetchedDocument, hash: String, now: Date,
        failed: inout FeedSource
    ) async throws(FeedError) -> FeedRefreshOutcome {
        guard let feedID = feed.id else { throw FeedError.notFound(entity: "feed", id: 0) }
        let (merge, outcome) = try await storage { () async throws(StorageError) in
            try await feeds.update(
                feedID: feedID, now: now,
                merging: Self.batchedParse(document) { parsed in
                    var state = fresh
                    state.contentHash = hash
                    state.format = parsed.format
                    state.pace = Self.pace(parsed.refreshInterval, document.maxAge)
                    if state.homePageURL == nil { state.homePageURL = parsed.link }
                    state.lastResult = .ok
                    return state
                })
        }
        if case .failed(let error) = outcome {
            // Forget the validators so the next refresh fetches the body again.
            failed.etag = nil
            failed.lastModified = nil
            throw FeedError.parse(error)
        }
        return .updated(newItems: merge.inserted.count, updatedItems: merge.updated.count)
    }

    private func deferral(for host: String, now: Date) -> Date? {
        guard let until = deferredHosts[host], until > now else { return nil }
        return until
    }

    private func endDeferral(for host: String) {
        deferredHosts[host] = nil
    }

    private func deferHost(_ host: String, until: Date) {
        deferredHosts[host] = max(deferredHosts[host] ?? until, until)
    }

    /// A permanent redirect moves the subscription unless another one already has that URL.
    /// A store that cannot tell keeps the subscription where it is (the next refresh asks again).
    private nonisolated func canMove(_ feed: FeedSource, to url: URL) async -> Bool {
        guard url != feed.url else { return false }
        do {
            guard let other = try await feeds.feed(url: url) else { return true }
            return other.id == feed.id
        } catch {
            return false
        }
    }

    /// Records the feed's new state; a feed removed meanwhile is left alone.
    ///
    /// - Throws: `.storage` when the database refuses the write (full disk, read-only file).
    private nonisolated func save(_ feed: FeedSource) async throws(FeedError) {
        do {
            try await feeds.update(feed, source: .app)
        } catch .notFound {
            return
        } catch {
            throw FeedError(error)
        }
    }
}
