/// An ordered list of sections and the item identifiers in each, like UIKit's
/// `NSDiffableDataSourceSnapshot`: identifiers are unique across the whole snapshot, and two
/// snapshots diff into inserts, deletes, moves and reloads.
///
/// Items are identifiers, not values: a view model marks an item whose content changed with
/// `reloadItems(_:)`, so a changed title is reported as a reload rather than a delete and an
/// insert.
public struct Snapshot<Section: Hashable & Sendable, Item: Hashable & Sendable>: Sendable, Hashable {
    private var sectionOrder: [Section] = []
    private var itemsBySection: [Section: [Item]] = [:]
    private var sectionOfItem: [Item: Section] = [:]
    /// Items marked as changed in place since the snapshot they are diffed against.
    public private(set) var reloadedItems: Set<Item> = []

    public init() {}

    /// The sections, in order.
    public var sectionIdentifiers: [Section] { sectionOrder }

    /// Every item, section by section.
    public var itemIdentifiers: [Item] { sectionOrder.flatMap { itemsBySection[$0] ?? [] } }

    /// How many items the snapshot holds.
    public var numberOfItems: Int { sectionOfItem.count }

    /// The items of one section (empty for an unknown section).
    public func itemIdentifiers(inSection section: Section) -> [Item] { itemsBySection[section] ?? [] }

    /// The section holding `item`.
    public func sectionIdentifier(containingItem item: Item) -> Section? { sectionOfItem[item] }

    /// The position of `item` in `itemIdentifiers`.
    public func index(ofItem item: Item) -> Int? { itemIdentifiers.firstIndex(of: item) }

    /// Appends sections; a section already present is an error naming it.
    public mutating func appendSections(_ sections: [Section]) throws(SnapshotError) {
        var seen = Set(sectionOrder)
        for section in sections where !seen.insert(section).inserted {
            throw .duplicateSection(String(describing: section))
        }
        sectionOrder += sections
        for section in sections { itemsBySection[section] = [] }
    }

    /// Appends items to a section (the last one when `section` is nil). An identifier already in
    /// the snapshot, or repeated in `items`, is an error naming it; nothing is appended then.
    public mutating func appendItems(_ items: [Item], toSection section: Section? = nil) throws(SnapshotError) {
        guard let target = section ?? sectionOrder.last else { throw .noSection }
        guard itemsBySection[target] != nil else { throw .unknownSection(String(describing: target)) }
        var seen = Set<Item>()
        for item in items where sectionOfItem[item] != nil || !seen.insert(item).inserted {
            throw .duplicateItem(String(describing: item))
        }
        itemsBySection[target, default: []] += items
        for item in items { sectionOfItem[item] = target }
    }

    /// Removes items; unknown identifiers are ignored.
    public mutating func deleteItems(_ items: [Item]) {
        let doomed = Set(items)
        var touched = Set<Section>()
        for item in doomed {
            if let section = sectionOfItem.removeValue(forKey: item) { touched.insert(section) }
        }
        for section in touched { itemsBySection[section]?.removeAll { doomed.contains($0) } }
        reloadedItems.subtract(doomed)
    }

    /// Removes every section and item.
    public mutating func deleteAllItems() {
        self = Snapshot()
    }

    /// Marks items whose content changed in place.
    public mutating func reloadItems(_ items: [Item]) {
        reloadedItems.formUnion(items.filter { sectionOfItem[$0] != nil })
    }

    /// What changed from `old` to this snapshot: items only in this one are inserted, items only
    /// in `old` deleted, items whose place among the kept items changed are moved (the fewest
    /// such moves), and items marked with `reloadItems(_:)` that stayed are reloaded.
    public func difference(from old: Snapshot) -> SnapshotDifference<Item> {
        let oldItems = old.itemIdentifiers
        let newItems = itemIdentifiers
        var oldIndex: [Item: Int] = [:]
        for (index, item) in oldItems.enumerated() { oldIndex[item] = index }
        var result = SnapshotDifference<Item>()
        result.deleted = oldItems.filter { sectionOfItem[$0] == nil }
        var kept: [(item: Item, from: Int, to: Int)] = []
        for (index, item) in newItems.enumerated() {
            if let from = oldIndex[item] {
                kept.append((item, from, index))
            } else {
                result.inserted.append(item)
            }
        }
        // Kept items on the longest run already in order stay; the rest moved. A kept item
        // that changed section moved too.
        let staying = Self.longestIncreasingRun(kept.map(\.from))
        for (position, entry) in kept.enumerated()
        where !staying.contains(position) || old.sectionOfItem[entry.item] != sectionOfItem[entry.item] {
            result.moved.append(.init(item: entry.item, from: entry.from, to: entry.to))
        }
        result.reloaded = newItems.filter { reloadedItems.contains($0) && oldIndex[$0] != nil }
        return result
    }

    /// Positions in `values` of one longest strictly increasing subsequence (patience sorting).
    private static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // positions in `values`
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.insert(cursor)
            cursor = previous[cursor]
        }
        return run
    }
}

/// How one snapshot differs from an earlier one.
public struct SnapshotDifference<Item: Hashable & Sendable>: Sendable, Hashable {
    /// An item that changed place: positions in the old and new item lists.
    public struct Move: Sendable, Hashable {
        public var item: Item
        /// Its position in the old snapshot.
        public var from: Int
        /// Its position in the new snapshot.
        public var to: Int
    }

    /// Items only in the new snapshot, in its order.
    public var inserted: [Item] = []
    /// Items only in the old snapshot, in its order.
    public var deleted: [Item] = []
    /// Kept items that changed place.
    public var moved: [Move] = []
    /// Kept items whose content changed.
    public var reloaded: [Item] = []

    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && moved.isEmpty && reloaded.isEmpty }
}

/// Why a snapshot refused a change.
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The item identifier is already in the snapshot.
    case duplicateItem(String)
    /// The section identifier is already in the snapshot.
    case duplicateSection(String)
    /// Items were appended to a section the snapshot does not have.
    case unknownSection(String)
    /// Items were appended before any section.
    case noSection

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .duplicateItem(let item): "duplicate item identifier \(item): identifiers must be unique"
        case .duplicateSection(let section): "duplicate section identifier \(section): identifiers must be unique"
        case .unknownSection(let section): "no section \(section) in the snapshot"
        case .noSection: "append a section before appending items"
        }
    }
}
