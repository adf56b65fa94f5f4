public import Foundation
import Networking

/// Why a sync stopped. What it stored before the failure stays, the marks not yet sent stay
/// pending, and the next sync goes on from there.
public enum AccountSyncError: Error, Sendable, Equatable, LocalizedError {
    /// The server failed or answered badly.
    case server(FeverError)
    /// The server kept sending new items far past the number it said it holds.
    case endlessItems(total: Int)
    /// The server sent more new items than one sync takes (`FeverSync.maxItemsPerSync`); what
    /// arrived is stored, and the next sync goes on from there.
    case tooManyItems(limit: Int)
    /// The local store could not be read or written: its words.
    case storage(String)

    public var errorDescription: String? {
        switch self {
        case .server(let error): error.errorDescription
        case .endlessItems(let total):
            "the server kept sending items far past the \(total) it says it holds; stopped"
        case .tooManyItems(let limit):
            "the server sent more than \(limit) new items in one sync; stopped (what arrived is kept, and the next sync goes on)"
        case .storage(let reason): "the account's articles could not be stored: \(reason)"
        }
    }
}

/// What one sync did.
public struct AccountSyncSummary: Sendable, Equatable {
    /// Marks sent to the server.
    public var marksSent = 0
    /// Marks dropped because they changed nothing since the last sync, or the server no longer
    /// has their item.
    public var marksDropped = 0
    public var feedsAdded = 0
    public var feedsRemoved = 0
    public var newItems = 0
    /// Local states the server's changed.
    public var states = StateChanges()
    /// How many items were skipped (an item of a feed the server does not list): the sync went on.
    public var skippedCount = 0
    /// Why, for the first few of them (`maxSkipReasons`).
    public var skipped: [String] = []
    /// How many reasons `skipped` keeps.
    public static let maxSkipReasons = 20

    /// The items skipped, so that each counts once.
    var skippedIDs = Set<Int64>()

    public init() {}

    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.marksSent, lhs.marksDropped, lhs.feedsAdded, lhs.feedsRemoved, lhs.newItems, lhs.skippedCount)
            == (rhs.marksSent, rhs.marksDropped, rhs.feedsAdded, rhs.feedsRemoved, rhs.newItems, rhs.skippedCount)
            && lhs.states == rhs.states && lhs.skipped == rhs.skipped
    }
}

/// Two-way sync of one Fever account with its store:
/// 1. the marks made since the last sync go to the server, oldest first, a mark whose item
///    is back where the last sync left it (read, then unread again) not at all; each is
///    forgotten once sent, so a sync killed midway sends the rest next time (marks are
///    idempotent on the server);
/// 2. the server's feeds and groups replace the account's;
/// 3. items after the stored cursor come a page at a time, each page stored with the cursor
///    after it in one transaction (memory stays one page, a kill loses no stored page and
///    repeats none); ids at or before the cursor, repeated within a page, or of feeds the
///    server does not list are skipped; a page with nothing past the cursor ends the paging;
/// 4. unread and saved ids come last: items they name that were never stored (a server whose
///    paging skipped them) are fetched by id, then every stored item takes the server's read
///    and starred states, except items marked again meanwhile.
///
/// So a mark made on either side since the last sync wins over no change on the other, and
/// after both sides sync they agree.
public struct FeverSync: Sendable {
    /// The most new items one sync pages through (2,000 pages of 50); an account with more
    /// takes several syncs, each going on from the last.
    public static let maxItemsPerSync = 100_000

    let client: FeverClient
    let store: any AccountStore
    let now: @Sendable () -> Date

    public init(client: FeverClient, store: any AccountStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.store = store
        self.now = now
    }

    /// Runs one sync; records its end (or its failure) in the store.
    public func sync() async throws(AccountSyncError) -> AccountSyncSummary {
        do {
            let summary = try await run()
            try await storing { try await store.recordSync(at: now(), problem: nil) }
            return summary
        } catch {
            try? await store.recordSync(at: now(), problem: error.errorDescription ?? "\(error)")
            throw error
        }
    }

    private func run() async throws(AccountSyncError) -> AccountSyncSummary {
        var summary = AccountSyncSummary()
        try await sendMarks(&summary)

        let (feeds, groups) = try await server { () async throws(FeverError) in
            let (feeds, feedGroups) = try await client.feeds()
            let (groups, _) = try await client.groups()
            return (feeds, (groups, feedGroups))
        }
        let remote = Self.remoteFeeds(feeds, groups: groups.0, feedGroups: groups.1)
        let replaced = try await storing { try await store.replaceFeeds(remote) }
        summary.feedsAdded = replaced.added
        summary.feedsRemoved = replaced.removed
        let known = Set(feeds.map(\.id))

        var cursor = try await storing { try await store.itemCursor() }
        var pages = 0
        while true {
            let page = try await server { () async throws(FeverError) in try await client.items(after: cursor) }
            // The end: no items, or none past the cursor (a server that ignores `since_id`
            // sends its first page again; what paging missed, the unread and saved ids fetch).
            let newest = page.items.map(\.id).max() ?? cursor
            guard newest > cursor else { break }
            // A server that sends new ids without end is stopped well past what it holds.
            pages += 1
            if let total = page.total, pages > total / FeverClient.pageSize + 20 { throw .endlessItems(total: total) }
            // Without a total, or with one past belief, a sync still ends: a server that sends
            // new ids without end stops here, each time after as many.
            if pages * FeverClient.pageSize > Self.maxItemsPerSync { throw .tooManyItems(limit: Self.maxItemsPerSync) }
            let fresh = Self.fresh(page.items, after: cursor, feeds: known, summary: &summary)
            summary.newItems += try await storing { try await store.storeItems(fresh, cursor: newest) }
            cursor = newest
        }

        let (unread, saved) = try await server { () async throws(FeverError) in
            (try await client.unreadItemIDs(), try await client.savedItemIDs())
        }
        let named = Set(unread.union(saved).map(String.init))
        let stored = try await storing { try await store.storedItems(among: named) }
        // At most as many as one sync takes, the newest first: a server that names a million ids
        // it never paged would otherwise have each sync ask for them all, fifty at a time.
        let missing = Array(named.subtracting(stored).compactMap(Int64.init).sorted().suffix(Self.maxItemsPerSync / 10))
        if !missing.isEmpty {
            let items = try await server { () async throws(FeverError) in try await client.items(ids: missing) }
            let fresh = Self.fresh(items, after: nil, feeds: known, summary: &summary)
            summary.newItems += try await storing { try await store.storeItems(fresh, cursor: cursor) }
        }
        summary.states = try await storing {
            try await store.applyStates(
                unread: Set(unread.map(String.init)), starred: Set(saved.map(String.init)))
        }
        return summary
    }

    /// Sends the pending marks, each item's and flag's net change once, in the order made.
    private func sendMarks(_ summary: inout AccountSyncSummary) async throws(AccountSyncError) {
        let marks = try await storing { try await store.pendingMarks() }
        guard !marks.isEmpty else { return }
        // Per item and flag: the state before its first mark and after its last.
        var net: [String: (was: Bool, now: Bool, last: Int64)] = [:]
        for mark in marks {
            switch mark.change {
            case .read(let item, let now, let was):
                net["r" + item] = (net["r" + item]?.was ?? was, now, mark.sequence)
            case .starred(let item, let now, let was):
                net["s" + item] = (net["s" + item]?.was ?? was, now, mark.sequence)
            case .feedRead: break
            }
        }
        for mark in marks {
            var sent = false
            switch mark.change {
            case .read(let item, _, _), .starred(let item, _, _):
                let isRead = if case .read = mark.change { true } else { false }
                guard let change = net[(isRead ? "r" : "s") + item], change.last == mark.sequence,
                    change.now != change.was, let id = Int64(item)
                else { break }
                let kind: FeverClient.ItemMark =
                    isRead ? (change.now ? .read : .unread) : (change.now ? .saved : .unsaved)
                do {
                    try await client.mark(item: id, kind)
                    sent = true
                } catch {
                    // A 404: the server no longer has the item, so the mark has nothing to change.
                    guard Self.isNotFound(error) else { throw .server(error) }
                }
            case .feedRead(let feed, let before):
                guard let id = Int64(feed) else { break }
                do {
                    try await client.markFeedRead(id, before: before)
                    sent = true
                } catch {
                    // A 404: the feed is gone from the server.
                    guard Self.isNotFound(error) else { throw .server(error) }
                }
            }
            if sent { summary.marksSent += 1 } else { summary.marksDropped += 1 }
            try await storing { try await store.removeMarks([mark.sequence]) }
        }
    }

    /// The items of `page` to store: not at or before `after`, each id once, of a listed feed.
    private static func fresh(
        _ page: [FeverItem], after cursor: Int64?, feeds: Set<Int64>, summary: inout AccountSyncSummary
    ) -> [RemoteItem] {
        var seen = Set<Int64>()
        var items: [RemoteItem] = []
        for item in page {
            if let cursor, item.id <= cursor { continue }
            guard seen.insert(item.id).inserted else { continue }
            guard feeds.contains(item.feedID) else {
                if summary.skippedIDs.insert(item.id).inserted {
                    summary.skippedCount += 1
                    if summary.skipped.count < AccountSyncSummary.maxSkipReasons {
                        summary.skipped.append("item \(item.id): its feed (\(item.feedID)) is not one the server lists")
                    }
                }
                continue
            }
            items.append(
                RemoteItem(
                    id: String(item.id), feedID: String(item.feedID), title: item.title, author: item.author,
                    html: item.html, url: item.url, published: item.created))
        }
        return items
    }

    static func remoteFeeds(_ feeds: [FeverFeed], groups: [FeverGroup], feedGroups: FeverFeedGroups) -> [RemoteFeed] {
        let titles = Dictionary(groups.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        var folders: [Int64: [String]] = [:]
        for (group, members) in feedGroups.feedsByGroup.sorted(by: { $0.key < $1.key }) {
            guard let title = titles[group], !title.isEmpty else { continue }
            for feed in members where folders[feed]?.contains(title) != true {
                folders[feed, default: []].append(title)
            }
        }
        var seen = Set<Int64>()
        return feeds.filter { seen.insert($0.id).inserted }.map { feed in
            RemoteFeed(
                id: String(feed.id), title: feed.title, url: feed.url, siteURL: feed.siteURL,
                folders: folders[feed.id] ?? [])
        }
    }

    // MARK: Errors

    private static func isNotFound(_ error: FeverError) -> Bool {
        if case .network(.status(let response)) = error { return response.status == 404 }
        return false
    }

    private func server<T>(_ body: () async throws(FeverError) -> T) async throws(AccountSyncError) -> T {
        do { return try await body() } catch { throw .server(error) }
    }

    private func storing<T>(_ body: () async throws -> T) async throws(AccountSyncError) -> T {
        do {
            return try await body()
        } catch let error as AccountSyncError {
            throw error
        } catch {
            throw .storage((error as? any LocalizedError)?.errorDescription ?? "\(error)")
        }
    }
}
