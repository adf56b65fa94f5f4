/// The one section a flat list has.
public enum ListSection: Hashable, Sendable {
    /// The list's only section.
    case main
}

/// What a list view model shows: the snapshot of ids, the row for each id, and how it differs
/// from what was shown before.
public struct ListContent<Row: Sendable & Hashable>: Sendable, Hashable {
    /// The ids, in order.
    public var snapshot: Snapshot<ListSection, Int64>
    /// The row for every id in the snapshot.
    public var rows: [Int64: Row]
    /// The change from the previous content (everything inserted for the first load).
    public var difference: SnapshotDifference<Int64>
    /// How many rows the whole list has (a paged list shows fewer).
    public var total: Int

    /// The rows in snapshot order.
    public var orderedRows: [Row] { snapshot.itemIdentifiers.compactMap { rows[$0] } }

    /// Builds content from ordered rows, diffed against `previous`: ids whose row changed are
    /// reloads.
    static func make(
        _ ordered: [(id: Int64, row: Row)], previous: ListContent?, total: Int? = nil
    ) throws(SnapshotError) -> ListContent {
        var snapshot = Snapshot<ListSection, Int64>()
        try snapshot.appendSections([.main])
        try snapshot.appendItems(ordered.map(\.id))
        var rows: [Int64: Row] = [:]
        for entry in ordered { rows[entry.id] = entry.row }
        let old = previous?.snapshot ?? Snapshot()
        if let previous {
            let changed = ordered.filter { entry in previous.rows[entry.id].map { $0 != entry.row } ?? false }
            snapshot.reloadItems(changed.map(\.id))
        }
        return ListContent(
            snapshot: snapshot, rows: rows, difference: snapshot.difference(from: old), total: total ?? ordered.count)
    }
}
