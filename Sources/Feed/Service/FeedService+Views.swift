public import Models
internal import Storage
internal import Store

extension FeedService {
    /// Every saved view, in the order they were saved.
    public func savedViews() async throws(FeedError) -> [SavedView] {
        try await storage { () async throws(StorageError) in try await store.savedViews.all() }
    }

    /// Saves `view`, replacing the one of the same name (case ignored); returns whether one was
    /// replaced.
    @discardableResult
    public func save(_ view: SavedView) async throws(FeedError) -> Bool {
        try await storage { () async throws(StorageError) in try await store.savedViews.save(view) }
    }

    /// Removes the view named `name` (case ignored); returns whether there was one.
    @discardableResult
    public func removeView(named name: String) async throws(FeedError) -> Bool {
        try await storage { () async throws(StorageError) in try await store.savedViews.remove(name: name) }
    }
}
