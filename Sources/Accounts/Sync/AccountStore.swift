public import Foundation

/// A feed the account's server subscribes to, in no protocol's terms: Fever's numeric ids and
/// the Google Reader API's strings alike are `String`s here.
public struct RemoteFeed: Sendable, Equatable {
    public var id: String
    public var title: String
    /// The feed's address: shown, never fetched by the reader (the server fetches it).
    public var url: URL?
    public var siteURL: URL?
    /// The folders (Fever's groups) that hold it, by title.
    public var folders: [String]

    public init(id: String, title: String, url: URL?, siteURL: URL?, folders: [String]) {
        self.id = id
        self.title = title
        self.url = url
        self.siteURL = siteURL
        self.folders = folders
    }
}

/// An item of an account's feed, as the server keeps it.
public struct RemoteItem: Sendable, Equatable {
    public var id: String
    public var feedID: String
    public var title: String
    public var author: String
    /// Untrusted HTML.
    public var html: String
    public var url: URL?
    public var published: Date?

    public init(
        id: String, feedID: String, title: String, author: String, html: String, url: URL?, published: Date?
    ) {
        self.id = id
        self.feedID = feedID
        self.title = title
        self.author = author
        self.html = html
        self.url = url
        self.published = published
    }
}

/// A change the user made to an account's item or feed, kept until the server has it.
public struct PendingMark: Sendable, Equatable {
    /// What the mark changes.
    public enum Change: Sendable, Equatable {
        /// An item's read state: `now` as set, `was` as it was before (the state the last sync
        /// left, when this is the item's first mark since).
        case read(item: String, now: Bool, was: Bool)
        /// An item's star.
        case starred(item: String, now: Bool, was: Bool)
        /// Every item of a feed the server had by `before`, read.
        case feedRead(feed: String, before: Date)
    }

    /// The order the marks were made in.
    public var sequence: Int64
    public var change: Change

    public init(sequence: Int64, change: Change) {
        self.sequence = sequence
        self.change = change
    }
}

/// What a sync changed locally.
public struct StateChanges: Sendable, Equatable {
    /// Items whose read state the server's changed.
    public var read = 0
    /// Items whose star the server's changed.
    public var starred = 0

    public init(read: Int = 0, starred: Int = 0) {
        self.read = read
        self.starred = starred
    }
}

/// Where an account's feeds, items, states and pending marks are kept: the sync writes
/// through it and never reaches a database itself (the composition root passes the store's
/// implementation in). Each call is one transaction: a sync killed between two calls leaves
/// what the earlier calls stored, and the next sync goes on from there.
public protocol AccountStore: Sendable {
    /// The marks not yet sent, oldest first.
    func pendingMarks() async throws -> [PendingMark]
    /// Forgets the marks the server now has (or cannot take), by `sequence`.
    func removeMarks(_ sequences: [Int64]) async throws
    /// Makes the account's feeds the server's: new ones added, known ones updated, the ones
    /// the server no longer lists removed with their items. Returns how many were added and
    /// removed.
    func replaceFeeds(_ feeds: [RemoteFeed]) async throws -> (added: Int, removed: Int)
    /// The greatest item id (as the server numbers them) stored so far; 0 when none.
    func itemCursor() async throws -> Int64
    /// Stores `items` (new ones added unread and unstarred, known ones updated in place) and
    /// sets the cursor to `cursor`, in one transaction. Returns how many were new.
    func storeItems(_ items: [RemoteItem], cursor: Int64) async throws -> Int
    /// The ids of the account's stored items among `ids`.
    func storedItems(among ids: Set<String>) async throws -> Set<String>
    /// Sets every stored item's read and starred states to the server's (`unread`, `starred`:
    /// the ids that are), except a state a pending mark holds (made after the marks were sent,
    /// during this sync): an item's read state when it or its feed was marked, its star when
    /// it was starred.
    func applyStates(unread: Set<String>, starred: Set<String>) async throws -> StateChanges
    /// Records the end of a complete sync, or why the last one stopped.
    func recordSync(at date: Date, problem: String?) async throws
}
