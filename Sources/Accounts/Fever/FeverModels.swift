public import Foundation

/// A group (folder) of a Fever account.
public struct FeverGroup: Sendable, Equatable {
    public var id: Int64
    public var title: String

    public init(id: Int64, title: String) {
        self.id = id
        self.title = title
    }
}

/// A feed the Fever server subscribes to and fetches for the account.
public struct FeverFeed: Sendable, Equatable {
    public var id: Int64
    public var title: String
    /// The feed's own address (the server fetches it; the reader never does).
    public var url: URL?
    /// The site the feed belongs to.
    public var siteURL: URL?
    /// When the server last found something new in it.
    public var lastUpdated: Date?

    public init(id: Int64, title: String, url: URL?, siteURL: URL?, lastUpdated: Date?) {
        self.id = id
        self.title = title
        self.url = url
        self.siteURL = siteURL
        self.lastUpdated = lastUpdated
    }
}

/// One item (article) as a Fever server sends it.
public struct FeverItem: Sendable, Equatable {
    public var id: Int64
    public var feedID: Int64
    public var title: String
    public var author: String
    /// The item's content, HTML as the server keeps it (untrusted markup).
    public var html: String
    public var url: URL?
    public var isRead: Bool
    public var isSaved: Bool
    /// When the server says the item was published or first seen.
    public var created: Date?

    public init(
        id: Int64, feedID: Int64, title: String, author: String, html: String, url: URL?, isRead: Bool,
        isSaved: Bool, created: Date?
    ) {
        self.id = id
        self.feedID = feedID
        self.title = title
        self.author = author
        self.html = html
        self.url = url
        self.isRead = isRead
        self.isSaved = isSaved
        self.created = created
    }
}

/// The feeds of each group (`feeds_groups`): a feed may be in several groups, or in none.
public struct FeverFeedGroups: Sendable, Equatable {
    /// Group id → the ids of its feeds, in the order the server listed them.
    public var feedsByGroup: [Int64: [Int64]]

    public init(feedsByGroup: [Int64: [Int64]] = [:]) {
        self.feedsByGroup = feedsByGroup
    }
}

/// A page of items and how many the server holds in all.
public struct FeverItemPage: Sendable, Equatable {
    public var items: [FeverItem]
    /// `total_items`, when the server sends it.
    public var total: Int?

    public init(items: [FeverItem], total: Int?) {
        self.items = items
        self.total = total
    }
}
