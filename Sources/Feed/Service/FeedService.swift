public import Foundation
public import Models
import Networking
import Storage
public import Store

/// Keeps subscriptions fresh and answers for them: subscribe (with discovery), refresh many
/// feeds concurrently, rename, unsubscribe, mark articles, import and export OPML.
///
/// It is the program's `FeedProviding`: callers see `FeedSource`, `StoredArticle` and the
/// summaries here, never HTTP, SQL or parser types. It knows nothing of household tasks.
/// Parsing runs off the actor, in the refresh's child tasks.
public actor FeedService {
    let store: LocalStore
    let feeds: FeedRepository
    let articles: ArticleRepository
    let fetcher: any FeedFetching
    let now: @Sendable () -> Date
    let parse: @Sendable (Data, URL, String?) throws(FeedParseError) -> ParsedFeed
    /// Documents of at least this many bytes are parsed while they are stored, in batches.
    let batchThreshold: Int
    /// Whether a refresh builds the search index of what it stores (`false`: the first search
    /// does, through the catch-up every search makes first).
    let indexesSearch: Bool
    private let maxConcurrentRefreshes: @Sendable () -> Int
    private let maxRetryAfter: @Sendable () -> Duration
    /// The retention of feeds without their own (the `keep-items` and `keep-days` settings).
    let retention: @Sendable () async -> RetentionPolicy
    let sleep: @Sendable (Duration) async throws -> Void
    /// Hosts that asked (429/503) not to be polled before a time, for the rest of this process.
    var deferredHosts: [String: Date] = [:]
    /// The longest a refreshed feed with nothing new waits to be stored with others (tests
    /// lengthen it to make the batching independent of the scheduler).
    var heldDelay: Duration = .milliseconds(50)

    /// - Parameters:
    ///   - store: where subscriptions and articles live.
    ///   - fetcher: how feeds are fetched (`HTTPFeedFetcher` over a transport).
    ///   - maxConcurrentRefreshes: read at the start of each refresh (the config's
    ///     `maxConcurrentRefreshes`; `RefreshDefaults` without one).
    ///   - maxRetryAfter: the longest a server's `Retry-After` (or 429/503 date) may defer a
    ///     feed, or be reported; read when one arrives (the config's `maxRetryAfterMinutes`;
    ///     `RefreshDefaults` without one).
    ///   - retention: the retention of feeds without their own, read at each purge.
    ///   - sleep: waits out a short `Retry-After` on `subscribe` (tests pass a recorder).
    ///   - parse: the parser; tests count its calls.
    ///   - batchThreshold: documents of at least this many bytes (default 8 MB) are parsed
    ///     inside the transaction that stores them, their items merged in batches as they are
    ///     read, so that memory does not grow with their items; `parse` reads the others.
    ///   - indexesSearch: whether a refresh indexes what it stores for search, beside its
    ///     merges (the default); `false` leaves it to the first search, which catches up before
    ///     it answers (`TIDINGS_DEFER_SEARCH_INDEX=1`: what the benchmarks compare a refresh with).
    ///   - now: the current time (tests pass a clock they control).
    public init(
        store: LocalStore, fetcher: any FeedFetching, now: @escaping @Sendable () -> Date = Date.init,
        maxConcurrentRefreshes: @escaping @Sendable () -> Int = { RefreshDefaults.maxConcurrentRefreshes },
        maxRetryAfter: @escaping @Sendable () -> Duration = { RefreshDefaults.maxRetryAfter },
        retention: @escaping @Sendable () async -> RetentionPolicy = { RetentionPolicy() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        parse: @escaping @Sendable (Data, URL, String?) throws(FeedParseError) -> ParsedFeed = {
            data, url, charset throws(FeedParseError) in
            try FeedDocumentParser.parse(data: data, url: url, charset: charset)
        },
        batchThreshold: Int = 8 << 20, indexesSearch: Bool = true
    ) {
        self.store = store
        self.feeds = store.feeds
        self.articles = store.articles
        self.fetcher = fetcher
        self.now = now
        self.maxConcurrentRefreshes = maxConcurrentRefreshes
        self.maxRetryAfter = maxRetryAfter
        self.retention = retention
        self.sleep = sleep
        self.parse = parse
        self.batchThreshold = max(1, batchThreshold)
        self.indexesSearch = indexesSearch
    }

    var concurrencyLimit: Int { max(1, min(64, maxConcurrentRefreshes())) }

    /// The time a server's deferral ends, capped at `maxRetryAfter` from `now`.
    nonisolated func cappedDeferral(_ until: Date, now: Date) -> Date {
        min(until, now.addingTimeInterval(max(0, maxRetryAfter().timeInterval)))
    }

    // MARK: Subscriptions

    /// Turns what a user typed into a URL: http(s) and file URLs as they are, anything else a
    /// local path (relative to the current directory, `~` expanded).
    public nonisolated static func url(from text: String) throws(FeedError) -> URL {
        let trimmed = text.trimmedSpaces
        guard !trimmed.isEmpty else { throw .invalidURL("(empty)") }
        if let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme.count > 1 {
            guard ["http", "https", "file"].contains(scheme), url.isFileURL || url.host != nil else {
                throw .invalidURL(trimmed)
            }
            // One spelling per file (file://localhost/a/../b.xml is file:///b.xml), and per web
            // address: scheme and host are case-insensitive (HTTP://Example.COM/a is
            // http://example.com/a; the path keeps its case).
            if url.isFileURL { return URL(fileURLWithPath: url.path).standardizedFileURL }
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
            components.scheme = scheme
            components.host = components.host?.lowercased()
            return components.url ?? url
        }
        let path = trimmed.hasPrefix("~") ? (trimmed as NSString).expandingTildeInPath : trimmed
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    /// Subscribes to `url`: fetches it, follows an HTML page to the feed it links to (else the
    /// common feed paths), parses it, stores the subscription and its articles in one
    /// transaction (an interrupted add leaves nothing, never an empty feed). A server asking to
    /// wait at most ten seconds (429/503 with `Retry-After`) is waited out once.
    ///
    /// - Throws: `.alreadySubscribed` for a URL already subscribed (also after discovery),
    ///   `.managedByAccount` for a URL a feed account's server already fetches (its server keeps
    ///   the subscriptions), `.noFeedFound`, `.parse`, or the fetch error.
    public func subscribe(url: URL, title: String? = nil) async throws(FeedError) -> SubscribeSummary {
        if let existing = try await storage({ () async throws(StorageError) in try await feeds.feed(url: url) }) {
            throw .alreadySubscribed(id: existing.id ?? 0, title: existing.title)
        }
        if let listed = try await storage({ () async throws(StorageError) in try await feeds.accountFeed(url: url) }),
            let account = listed.accountID
        {
            throw .managedByAccount(feedID: listed.id ?? 0, accountID: account)
        }
        let fetched: (document: FetchedDocument, parsed: ParsedFeed?, links: [URL])
        do {
            fetched = try await fetchFeed(at: url)
        } catch .gone {
            // Nothing was subscribed, so nothing is "no longer polled": the server's word alone.
            throw .http(status: 410)
        }
        let (document, parsed, links) = fetched
        let feedURL = document.permanentRedirect ?? (document.url == url ? url : document.url)
        if feedURL != url,
            let existing = try await storage({ () async throws(StorageError) in try await feeds.feed(url: feedURL) })
        {
            throw .alreadySubscribed(id: existing.id ?? 0, title: existing.title)
        }
        let now = self.now()
        // Hashed here, not in `state`: for a large feed that runs on the writer.
        let hash = BodyDigest.text(of: document.body)
        let state = { @Sendable (parsed: ParsedFeed) -> FeedSource in
            FeedSource(
                url: feedURL,
                title: title?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
                    ?? Self.title(for: parsed, url: feedURL),
                homePageURL: parsed.link, format: parsed.format, etag: document.etag,
                lastModified: document.lastModified, contentHash: hash, lastResult: .ok,
                lastRefreshedAt: now, pace: Self.pace(parsed.refreshInterval, document.maxAge))
        }
        let stored: FeedSource
        let merge: MergeResult
        let feed: ParsedFeed
        let itemCount: Int
        let mark = try await storage { () async throws(StorageError) in try await articles.lastArticleID() }
        let hasRules = !(try await rules().isEmpty)
        if let parsed {
            let items = parsed.items.map { $0.article(feedID: 0) }
            (stored, merge) = try await storage { () async throws(StorageError) in
                try await feeds.add(state(parsed), articles: items, now: now)
            }
            (feed, itemCount) = (parsed, parsed.items.count)
        } else {
            // A large document, parsed while it is stored (FeedService+Batches).
            let (added, batches, outcome) = try await storage { () async throws(StorageError) in
                try await feeds.add(url: feedURL, now: now, merging: Self.batchedParse(document, state: state))
            }
            switch outcome {
            case .failed(let error):
                throw .parse(error)
            case .parsed(let parsed, let count):
                guard let added else { throw .parse(.malformed("the feed was not stored")) }
                (stored, merge, feed, itemCount) = (added, batches, parsed, count)
            }
        }
        var warnings = feed.warnings
        var rules = RuleOutcome()
        if !merge.inserted.isEmpty {
            if hasRules { rules = try await applyRules(after: mark) }
            // What this add brought is what `items --new` lists until the next refresh.
            try await storage { () async throws(StorageError) in
                try await store.settings.set(Self.lastRefreshMarkKey, to: String(mark))
            }
        }
        do {
            // Index the new articles now, so that no search pays for them.
            try await articles.updateSearchIndex()
        } catch {
            warnings.append(
                "the items are not indexed for search yet (\(FeedError(error).errorDescription ?? "\(error)")); "
                    + "the next search will index them")
        }
        return SubscribeSummary(
            feed: stored, itemCount: itemCount, newCount: merge.inserted.count, warnings: warnings,
            otherFeeds: links.filter { $0 != document.url && $0 != feedURL }, rules: rules)
    }

    /// The feeds an HTML page links to (or, for a feed URL, the feed itself).
    public func discover(url: URL) async throws(FeedError) -> [DiscoveredFeed] {
        guard case .fetched(let document) = try await fetcher.fetch(url, etag: nil, lastModified: nil) else {
            return []
        }
        if let parsed = try? parse(document.body, document.url, document.charset) {
            return [DiscoveredFeed(url: document.url, title: parsed.title, type: parsed.format.rawValue)]
        }
        return FeedDiscovery.feedLinks(inHTML: document.body, pageURL: document.url)
    }

    /// Every subscription, in the order they were added.
    public func subscriptions() async throws(FeedError) -> [FeedSource] {
        try await storage { () async throws(StorageError) in try await feeds.all() }
    }

    /// Every subscription with its article counts, in id order, for printing a list of them
    /// once: lighter than `FeedListViewModel`'s rows, which carry a whole `FeedSource` each.
    public func summaries() async throws(FeedError) -> [FeedSummary] {
        try await storage { () async throws(StorageError) in try await feeds.summaries() }
    }

    /// One subscription.
    public func subscription(id: Int64) async throws(FeedError) -> FeedSource {
        guard let feed = try await storage({ () async throws(StorageError) in try await feeds.feed(id: id) }) else {
            throw .notFound(entity: "feed", id: id)
        }
        return feed
    }

    /// Unread and total counts per feed id.
    public func articleCounts() async throws(FeedError) -> [Int64: ArticleCounts] {
        try await storage { () async throws(StorageError) in try await feeds.articleCounts() }
    }

    /// Unsubscribes and deletes the feed's articles (starred ones too).
    /// - Throws: `.managedByAccount` for a feed of a feed account: its server keeps the
    ///   subscriptions (the Fever API has no call to change them).
    public func unsubscribe(id: Int64) async throws(FeedError) {
        let feed = try await subscription(id: id)
        if let account = feed.accountID { throw .managedByAccount(feedID: id, accountID: account) }
        try await storage { () async throws(StorageError) in try await feeds.remove(id: id) }
    }

    /// Renames a subscription.
    public func rename(id: Int64, to title: String) async throws(FeedError) {
        var feed = try await subscription(id: id)
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .storage(.missingField(entity: "feed", field: "title")) }
        feed.title = trimmed
        try await storage { () async throws(StorageError) in try await feeds.update(feed, source: .user) }
    }

    /// What each commit from now on changes among subscriptions and articles, for view models
    /// that keep themselves current. Commits that touch neither are not delivered.
    public nonisolated func changes() -> AsyncStream<FeedChanges> {
        // Subscribed now, before the caller's first await, so no commit slips between.
        store.changes().compactMapped { changeSet in
            let changes = FeedChanges(feeds: ChangedIDs(changeSet[.feed]), articles: ChangedIDs(changeSet[.article]))
            return changes.feeds.isEmpty && changes.articles.isEmpty ? nil : changes
        }
    }

    // MARK: Helpers

    /// Fetches `url` and parses it; an HTML page is followed to the feed it links to, else to
    /// the first common path that parses.
    /// The document at `url`, parsed, or the feed an HTML page there leads to. A large feed
    /// comes back unparsed (`nil`): it is parsed while it is stored (`mergesInBatches`).
    func fetchFeed(at url: URL) async throws(FeedError) -> (FetchedDocument, ParsedFeed?, links: [URL]) {
        let outcome: FetchOutcome
        do {
            outcome = try await fetcher.fetchWaitingBriefly(url, now: now, sleep: sleep)
        } catch .rateLimited(let status, let until?) {
            // The message names no date beyond the cap, as a refresh's does.
            throw .rateLimited(status: status, until: cappedDeferral(until, now: now()))
        }
        guard case .fetched(let document) = outcome else { throw .http(status: 304) }
        let firstError: FeedParseError
        do {
            if mergesInBatches(document) {
                // What the first kilobyte tells (an HTML page, binary data) decides here, so
                // that a large page still leads to its feed.
                try FeedDocumentParser.checkKind(of: document.body)
                return (document, nil, [])
            }
            return (document, try parse(document.body, document.url, document.charset), [])
        } catch {
            firstError = error
        }
        guard case .notAFeed = firstError, Self.looksLikeHTML(document) else { throw .parse(firstError) }
        let links = FeedDiscovery.feedLinks(inHTML: document.body, pageURL: document.url).map(\.url)
        let candidates = links + FeedDiscovery.commonFeedURLs(for: document.url)
        for candidate in candidates where candidate != url {
            guard case .fetched(let found)? = try? await fetcher.fetch(candidate, etag: nil, lastModified: nil),
                let parsed = try? parse(found.body, found.url, found.charset)
            else { continue }
            return (found, parsed, links)
        }
        throw .noFeedFound(url, links: links)
    }

    static func looksLikeHTML(_ document: FetchedDocument) -> Bool {
        if document.mediaType == "text/html" || document.mediaType == "application/xhtml+xml" { return true }
        let head = String(decoding: document.body.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<html") || head.contains("<!doctype html")
    }

    static func title(for feed: ParsedFeed, url: URL) -> String {
        feed.title?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
            ?? url.host ?? url.deletingPathExtension().lastPathComponent.nonEmpty ?? url.absoluteString
    }

    func storage<Value>(_ work: () async throws(StorageError) -> Value) async throws(FeedError) -> Value {
        do {
            return try await work()
        } catch {
            throw FeedError(error)
        }
    }
}
