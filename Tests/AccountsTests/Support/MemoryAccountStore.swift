import Accounts
import Foundation

/// An account's store held in memory, for the sync's tests: what a home keeps of one account
/// (feeds, items with their read and starred states, pending marks, the cursor), and the
/// user's own actions on it, which add pending marks as the real store will. `failing` makes
/// the next write of a kind fail, as a crash or a full disk would.
actor MemoryAccountStore: AccountStore {
    struct Item: Equatable {
        var remote: RemoteItem
        var isRead = false
        var isStarred = false
    }

    struct StoreFailure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    private(set) var feeds: [String: RemoteFeed] = [:]
    private(set) var items: [String: Item] = [:]
    private(set) var marks: [PendingMark] = []
    private(set) var cursor: Int64 = 0
    private(set) var syncedAt: Date?
    private(set) var problem: String?
    /// How many item writes succeed before the next one fails (`nil`: none fails).
    var itemWritesBeforeFailure: Int?
    private var sequence: Int64 = 0

    /// Makes the `n + 1`th item write from now fail.
    func failItemWrite(after n: Int) { itemWritesBeforeFailure = n }

    // MARK: The user's actions

    func markRead(_ id: String, _ read: Bool = true) {
        guard let item = items[id] else { return }
        sequence += 1
        marks.append(PendingMark(sequence: sequence, change: .read(item: id, now: read, was: item.isRead)))
        items[id]?.isRead = read
    }

    func star(_ id: String, _ starred: Bool = true) {
        guard let item = items[id] else { return }
        sequence += 1
        marks.append(PendingMark(sequence: sequence, change: .starred(item: id, now: starred, was: item.isStarred)))
        items[id]?.isStarred = starred
    }

    func markFeedRead(_ feed: String, before: Date) {
        sequence += 1
        marks.append(PendingMark(sequence: sequence, change: .feedRead(feed: feed, before: before)))
        for (id, item) in items where item.remote.feedID == feed { items[id]?.isRead = true }
    }

    /// The ids of unread and of starred items.
    var unread: Set<String> { Set(items.filter { !$0.value.isRead }.keys) }
    var starred: Set<String> { Set(items.filter { $0.value.isStarred }.keys) }

    // MARK: AccountStore

    func pendingMarks() async throws -> [PendingMark] { marks }

    func removeMarks(_ sequences: [Int64]) async throws {
        let gone = Set(sequences)
        marks.removeAll { gone.contains($0.sequence) }
    }

    func replaceFeeds(_ remote: [RemoteFeed]) async throws -> (added: Int, removed: Int) {
        let listed = Set(remote.map(\.id))
        let removed = feeds.keys.filter { !listed.contains($0) }
        for id in removed {
            feeds[id] = nil
            items = items.filter { $0.value.remote.feedID != id }
        }
        let added = remote.filter { feeds[$0.id] == nil }.count
        for feed in remote { feeds[feed.id] = feed }
        return (added, removed.count)
    }

    func itemCursor() async throws -> Int64 { cursor }

    func storeItems(_ batch: [RemoteItem], cursor: Int64) async throws -> Int {
        if let left = itemWritesBeforeFailure {
            if left == 0 {
                itemWritesBeforeFailure = nil
                throw StoreFailure()
            }
            itemWritesBeforeFailure = left - 1
        }
        var new = 0
        for item in batch {
            precondition(feeds[item.feedID] != nil, "item \(item.id) of a feed not stored")
            if items[item.id] == nil {
                items[item.id] = Item(remote: item)
                new += 1
            } else {
                items[item.id]?.remote = item
            }
        }
        self.cursor = max(self.cursor, cursor)
        return new
    }

    func storedItems(among ids: Set<String>) async throws -> Set<String> {
        ids.filter { items[$0] != nil }
    }

    func applyStates(unread: Set<String>, starred: Set<String>) async throws -> StateChanges {
        // A pending mark holds its flag: an item's or its feed's read state, an item's star.
        var heldRead = Set<String>()
        var heldStar = Set<String>()
        for mark in marks {
            switch mark.change {
            case .read(let item, _, _): heldRead.insert(item)
            case .starred(let item, _, _): heldStar.insert(item)
            case .feedRead(let feed, _): heldRead.formUnion(items.filter { $0.value.remote.feedID == feed }.keys)
            }
        }
        var changes = StateChanges()
        for (id, item) in items {
            if !heldRead.contains(id) {
                let read = !unread.contains(id)
                if item.isRead != read { changes.read += 1 }
                items[id]?.isRead = read
            }
            if !heldStar.contains(id) {
                let star = starred.contains(id)
                if item.isStarred != star { changes.starred += 1 }
                items[id]?.isStarred = star
            }
        }
        return changes
    }

    func recordSync(at date: Date, problem: String?) async throws {
        if problem == nil { syncedAt = date }
        self.problem = problem
    }
}
