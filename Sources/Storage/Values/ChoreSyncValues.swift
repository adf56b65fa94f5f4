public import Foundation

/// The CalDAV collection chores are shared through. The password is not here: it is read from
/// `~/.netrc` or the environment when it is needed, and never stored.
public struct ChoreSyncAccount: Sendable, Hashable {
    /// The calendar collection.
    public var url: URL
    /// The user the server knows.
    public var user: String
    /// The collection's RFC 6578 token after the last sync, when the server gives one.
    public var syncToken: String?
    /// When the last sync ended.
    public var lastSyncAt: Date?
    /// How it ended, in words.
    public var lastResult: String?
    /// The list the collection holds alone; `nil` for the collection of every other list.
    public var list: String?

    public init(
        url: URL, user: String, syncToken: String? = nil, lastSyncAt: Date? = nil, lastResult: String? = nil,
        list: String? = nil
    ) {
        self.list = list
        self.url = url
        self.user = user
        self.syncToken = syncToken
        self.lastSyncAt = lastSyncAt
        self.lastResult = lastResult
    }
}

/// One calendar object on the server, as last synced.
public struct ChoreSyncItem: Sendable, Hashable {
    /// Its path on the server (`/alice/chores/6B29….ics`).
    public var href: String
    public var uid: String
    /// The task it is; `nil` once the task was deleted here (the deletion has yet to reach the
    /// server) or for an object Tidings could not read.
    public var taskID: Int64?
    /// The server's ETag for the text below.
    public var etag: String?
    /// The text last synced: what both sides agreed on, the base of a three-way merge.
    public var icalendar: String
    /// Which of the chore's fields the task took from that text: 1 for an object last synced
    /// before due times, priorities and reminders were shared (the task has yet to take them
    /// from it), `currentFieldsVersion` since.
    public var fieldsVersion: Int

    /// The fields a sync now reads.
    public static let currentFieldsVersion = 2

    /// The UID of the parent chore the object names (`RELATED-TO`) while no task here is it.
    public var pendingParent: String?

    public init(
        href: String, uid: String, taskID: Int64?, etag: String?, icalendar: String,
        fieldsVersion: Int = ChoreSyncItem.currentFieldsVersion, pendingParent: String? = nil
    ) {
        self.pendingParent = pendingParent
        self.fieldsVersion = fieldsVersion
        self.href = href
        self.uid = uid
        self.taskID = taskID
        self.etag = etag
        self.icalendar = icalendar
    }
}
