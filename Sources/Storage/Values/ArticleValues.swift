import Foundation
import Models

/// What a merge changed.
public struct MergeResult: Sendable, Hashable {
    /// Ids of articles that were new, in the order the feed listed them.
    public var inserted: [Int64]
    /// Ids of stored articles whose fields changed.
    public var updated: [Int64]
    /// How many incoming articles were already stored unchanged.
    public var unchanged: Int

    public init(inserted: [Int64] = [], updated: [Int64] = [], unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}
