public import Foundation
public import Store
internal import Storage

/// An account's feeds, articles, states and pending marks in the app's local store (the one
/// SQLite file): its feeds are feeds like the others, its items articles, so every list,
/// search, rule and view shows them; a status changed by any command becomes a pending mark
/// (the store's triggers write it).
public struct LocalAccountStore: AccountStore {
    let repository: AccountRepository
    /// The account, as the store numbers it.
    public let accountID: Int64

    public init(store: LocalStore, accountID: Int64) {
        repository = store.accounts
        self.accountID = accountID
    }

    public func pendingMarks() async throws -> [PendingMark] {
        try await repository.pendingMarks(account: accountID).compactMap { mark in
            switch mark.kind {
            case .read, .starred:
                // A mark of an article that is not the server's item (none should be) has no
                // item to name: it is dropped as the sync drops marks it cannot send.
                guard let item = RemoteItem.remoteID(inUniqueID: mark.target) else {
                    return PendingMark(sequence: mark.sequence, change: .read(item: "", now: false, was: false))
                }
                return PendingMark(
                    sequence: mark.sequence,
                    change: mark.kind == .read
                        ? .read(item: item, now: mark.now, was: mark.was)
                        : .starred(item: item, now: mark.now, was: mark.was))
            case .feedRead:
                return PendingMark(
                    sequence: mark.sequence,
                    change: .feedRead(feed: mark.target, before: mark.before ?? Date(timeIntervalSince1970: 0)))
            }
        }
    }

    public func removeMarks(_ sequences: [Int64]) async throws {
        try await repository.removeMarks(sequences, account: accountID)
    }

    public func replaceFeeds(_ feeds: [RemoteFeed]) async throws -> (added: Int, removed: Int) {
        let result = try await repository.replaceFeeds(
            feeds.map {
                AccountFeed(remoteID: $0.id, url: $0.url, title: $0.title, homePageURL: $0.siteURL, folders: $0.folders)
            }, account: accountID)
        return (result.added, result.removed)
    }

    public func itemCursor() async throws -> Int64 {
        try await repository.itemCursor(account: accountID)
    }

    public func storeItems(_ items: [RemoteItem], cursor: Int64) async throws -> Int {
        let feeds = try await repository.feedIDs(account: accountID)
        let articles = items.compactMap { item in feeds[item.feedID].map { item.article(feedID: $0) } }
        return try await repository.storeArticles(articles, cursor: cursor, account: accountID)
    }

    public func storedItems(among ids: Set<String>) async throws -> Set<String> {
        let stored = try await repository.storedArticles(
            among: Set(ids.map(Self.uniqueID)),
            account: accountID)
        return Set(stored.compactMap(RemoteItem.remoteID(inUniqueID:)))
    }

    public func applyStates(unread: Set<String>, starred: Set<String>) async throws -> StateChanges {
        let changes = try await repository.applyStates(
            unread: Set(unread.map(Self.uniqueID)), starred: Set(starred.map(Self.uniqueID)), account: accountID)
        return StateChanges(read: changes.read, starred: changes.starred)
    }

    public func recordSync(at date: Date, problem: String?) async throws {
        try await repository.recordSync(account: accountID, at: date, problem: problem)
    }

    private static func uniqueID(_ remoteID: String) -> String { RemoteItem.uniqueIDPrefix + remoteID }
}
