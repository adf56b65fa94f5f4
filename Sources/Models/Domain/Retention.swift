/// How many articles a feed keeps (newsboat's `max-items` and `keep-articles-days`): at most
/// `items` (the newest), and read ones for at most `days` days; `nil` (or 0) keeps all. Starred
/// articles are always kept.
public struct RetentionPolicy: Sendable, Hashable {
    public var items: Int?
    public var days: Int?

    public init(items: Int? = nil, days: Int? = nil) {
        self.items = items
        self.days = days
    }
}

/// What a purge deleted, and what the database file gave back.
public struct PurgeSummary: Sendable, Hashable {
    /// Articles deleted.
    public var deleted = 0
    /// Bytes the database file gave back.
    public var freedBytes: Int64 = 0

    public init(deleted: Int = 0, freedBytes: Int64 = 0) {
        self.deleted = deleted
        self.freedBytes = freedBytes
    }
}
