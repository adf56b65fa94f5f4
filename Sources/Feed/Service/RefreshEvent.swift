public import Foundation
public import Models

/// What refreshing one feed came to.
public enum FeedRefreshOutcome: Sendable, Hashable {
    /// New content was parsed and merged: `newItems` inserted, `updatedItems` changed.
    case updated(newItems: Int, updatedItems: Int)
    /// The server answered 304, or sent the same body again (nothing was parsed).
    case notModified
    /// The feed was not asked for: it is gone, or its server asked to wait.
    case skipped(reason: String)
    /// The refresh failed; the feed keeps its articles and validators.
    case failed(FeedError)
}

/// One step of a refresh, as it happens, for a progress line.
public enum RefreshEvent: Sendable, Hashable {
    /// The refresh starts with this many feeds.
    case started(total: Int)
    /// One feed is done; `completed` of `total` are done now.
    case feedFinished(feed: FeedSource, outcome: FeedRefreshOutcome, completed: Int, total: Int)
    /// Every feed is done and the `newItems` they stored are being indexed for search.
    case indexing(newItems: Int)
    /// Every feed is done (or the refresh was cancelled).
    case finished(RefreshSummary)
    /// The refresh could not start (an unknown feed id, an unreadable database).
    case failedToStart(FeedError)
}

/// The result of refreshing several feeds.
public struct RefreshSummary: Sendable, Hashable {
    /// One feed and what happened to it (why it failed, or what it had been).
    public struct Failure: Sendable, Hashable {
        /// The feed's id.
        public var feedID: Int64
        public var url: URL
        /// Why it failed.
        public var reason: String
    }

    /// Feeds asked for (answered with content or 304, or failed).
    public var refreshed = 0
    /// Articles inserted (rules may have hidden some of them since: `rules`).
    public var newItems = 0
    /// What rules did to the new articles.
    public var rules = RuleOutcome()
    /// The feeds that brought new articles, with how many each brought, most first.
    public var newByFeed: [NewArticles] = []
    /// How many of the new articles arrived already read (dated more than six months back).
    public var arrivedRead = 0
    /// What retention deleted after the refresh.
    public var purged = PurgeSummary()

    /// One feed's new articles in a refresh.
    public struct NewArticles: Sendable, Hashable {
        public var feedID: Int64
        public var title: String
        public var count: Int
    }
    /// Feeds whose content had not changed.
    public var notModified = 0
    /// Feeds not asked for (gone, or deferred by the server).
    public var skipped = 0
    /// Feeds that failed.
    public var failed: [Failure] = []
    /// Feeds that had been gone (410) or deferred by their server and answered again: they are
    /// polled again from now on.
    public var resumed: [Failure] = []
    /// Whether the database refused to store a result (a full disk, a read-only file).
    public var storingFailed = false
    /// Whether the refresh was cancelled before every feed was done.
    public var cancelled = false
    /// Why the new articles could not be indexed for search after they were stored, if they
    /// could not (the next search indexes them instead).
    public var searchIndexFailure: String?

    public init() {}

    /// Whether feeds were asked for and none of them could be refreshed.
    public var nothingRefreshed: Bool { refreshed > 0 && failed.count == refreshed }

    mutating func record(_ outcome: FeedRefreshOutcome, feed: FeedSource) {
        let wasResting = feed.isGone || feed.retryAfter != nil
        let comeBack = Failure(
            feedID: feed.id ?? 0, url: feed.url, reason: feed.isGone ? "it had been gone" : "it had asked to wait")
        switch outcome {
        case .updated(let new, _):
            refreshed += 1
            newItems += new
            if new > 0 {
                newByFeed.append(NewArticles(feedID: feed.id ?? 0, title: feed.title, count: new))
                newByFeed.sort { ($0.count, $1.title) > ($1.count, $0.title) }
            }
            if wasResting { resumed.append(comeBack) }
        case .notModified:
            refreshed += 1
            notModified += 1
            if wasResting { resumed.append(comeBack) }
        case .skipped:
            skipped += 1
        case .failed(let error):
            refreshed += 1
            if case .storage = error { storingFailed = true }
            failed.append(
                Failure(feedID: feed.id ?? 0, url: feed.url, reason: error.errorDescription ?? "\(error)"))
        }
    }
}

/// What subscribing did.
public struct SubscribeSummary: Sendable, Hashable {
    /// The stored subscription.
    public var feed: FeedSource
    /// How many items the feed holds.
    public var itemCount: Int
    /// How many of them were new to the database.
    public var newCount: Int
    /// Problems the parser recovered from.
    public var warnings: [String]
    /// The other feeds the page (when an HTML page was given) links to, not subscribed.
    public var otherFeeds: [URL] = []
    /// What rules did to the new items.
    public var rules = RuleOutcome()
}

/// What importing an OPML file did.
public struct ImportSummary: Sendable, Hashable {
    /// Subscriptions added.
    public var imported: Int
    /// Subscriptions already present.
    public var alreadyPresent: Int
    /// Outlines left out: a feed URL that is not an absolute http or https address.
    public var skipped: [String] = []

    public init(imported: Int, alreadyPresent: Int, skipped: [String] = []) {
        self.imported = imported
        self.alreadyPresent = alreadyPresent
        self.skipped = skipped
    }
}
