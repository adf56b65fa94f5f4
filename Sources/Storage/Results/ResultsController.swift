public import Models

/// How a list changed, by position: apply `deleted` (old positions), then `inserted` (new
/// positions), `moved` from old to new positions, and reload `updated` (new positions) — the
/// batch a table view's `performBatchUpdates` takes.
public struct ResultsDifference: Sendable, Hashable {
    /// A row that moved.
    public struct Move: Sendable, Hashable {
        /// Its position before.
        public var from: Int
        /// Its position after.
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Positions in the old list of rows that are gone.
    public var deleted: [Int] = []
    /// Positions in the new list of rows that are new.
    public var inserted: [Int] = []
    /// Rows that changed position.
    public var moved: [Move] = []
    /// Positions in the new list of rows whose content changed in place.
    public var updated: [Int] = []

    /// Whether nothing changed.
    public var isEmpty: Bool { deleted.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }
}

/// A long ordered list that fetches only the ids up front and loads objects in batches when
/// they are read, like Core Data's `NSFetchedResultsController` with a batch size.
///
/// Reading position 0 of 100,000 rows loads one batch. After a change, `refresh(updated:)`
/// fetches the ids again and reports one `ResultsDifference`.
public actor ResultsController<Element: Sendable> {
    private let batchSize: Int
    private let fetchIDs: @Sendable () async throws(StorageError) -> [Int64]
    private let fetchObjects: @Sendable ([Int64]) async throws(StorageError) -> [Int64: Element]
    private var ids: [Int64] = []
    private var loaded: [Int64: Element] = [:]

    /// Creates a controller over an id query and a batch loader.
    public init(
        batchSize: Int = 50,
        fetchIDs: @escaping @Sendable () async throws(StorageError) -> [Int64],
        fetchObjects: @escaping @Sendable ([Int64]) async throws(StorageError) -> [Int64: Element]
    ) {
        self.batchSize = max(1, batchSize)
        self.fetchIDs = fetchIDs
        self.fetchObjects = fetchObjects
    }

    /// Fetches the ordered ids (and no objects).
    public func performFetch() async throws(StorageError) {
        ids = try await fetchIDs()
        loaded = [:]
    }

    /// How many rows the list has.
    public var count: Int { ids.count }

    /// The ordered ids.
    public var identifiers: [Int64] { ids }

    /// How many objects are loaded now.
    public var loadedCount: Int { loaded.count }

    /// The object at `index`, loading its batch if needed; `nil` outside the list.
    public func object(at index: Int) async throws(StorageError) -> Element? {
        guard ids.indices.contains(index) else { return nil }
        let id = ids[index]
        if let object = loaded[id] { return object }
        let start = index / batchSize * batchSize
        let batch = ids[start..<min(start + batchSize, ids.count)].filter { loaded[$0] == nil }
        let objects = try await fetchObjects(Array(batch))
        loaded.merge(objects) { _, new in new }
        return loaded[id]
    }

    /// Fetches the ids again after a change and reports what moved; `updated` are ids whose
    /// content changed (their loaded copies are dropped and reported as updates in place).
    public func refresh(updated: Set<Int64> = []) async throws(StorageError) -> ResultsDifference {
        let old = ids
        let new = try await fetchIDs()
        ids = new
        let newSet = Set(new)
        for id in loaded.keys where !newSet.contains(id) || updated.contains(id) { loaded[id] = nil }

        var difference = ResultsDifference()
        var movedIDs = Set<Int64>()
        for change in new.difference(from: old).inferringMoves() {
            switch change {
            case .remove(let offset, let id, let associated):
                if let to = associated {
                    difference.moved.append(.init(from: offset, to: to))
                    movedIDs.insert(id)
                } else {
                    difference.deleted.append(offset)
                }
            case .insert(let offset, _, let associated):
                if associated == nil { difference.inserted.append(offset) }
            }
        }
        let oldSet = Set(old)
        for (position, id) in new.enumerated()
        where updated.contains(id) && oldSet.contains(id) && !movedIDs.contains(id) {
            difference.updated.append(position)
        }
        difference.deleted.sort()
        difference.inserted.sort()
        difference.moved.sort { $0.to < $1.to }
        return difference
    }
}
