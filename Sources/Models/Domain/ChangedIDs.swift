import Foundation

/// The ids one committed transaction inserted, updated and deleted, of one kind of record.
public struct ChangedIDs: Sendable, Hashable {
    /// Records that are new.
    public var inserted: Set<Int64>
    /// Records that changed.
    public var updated: Set<Int64>
    /// Records that are gone.
    public var deleted: Set<Int64>

    /// Creates a description of changes.
    public init(inserted: Set<Int64> = [], updated: Set<Int64> = [], deleted: Set<Int64> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
