public import Models

/// The kinds of stored objects a change can touch.
public enum Entity: String, Sendable, Hashable, CaseIterable {
    /// A subscription (`FeedSource`).
    case feed
    /// An article; a change of its read or starred status counts as an update of the article.
    case article
    /// A household task; a recorded completion counts as an update of the task.
    case task
}

/// Who made a change, so a subscriber can listen to one writer or ignore its own writes.
public struct ChangeSource: Sendable, Hashable, CustomStringConvertible {
    /// A short name (`feed-refresh`, `user`).
    public let name: String

    /// Creates a source with a name.
    public init(_ name: String) { self.name = name }

    /// Changes made directly by the person using the app.
    public static let user = ChangeSource("user")
    /// Changes made by background work the app started on its own.
    public static let app = ChangeSource("app")

    /// The name.
    public var description: String { name }
}

/// The ids one transaction inserted, updated and deleted for one entity. An object inserted and
/// then updated in the same transaction is only inserted; one inserted and deleted is in none.
public struct EntityChanges: Sendable, Hashable {
    /// Ids of new objects.
    public internal(set) var inserted: Set<Int64> = []
    /// Ids of objects that existed before and changed.
    public internal(set) var updated: Set<Int64> = []
    /// Ids of objects that no longer exist.
    public internal(set) var deleted: Set<Int64> = []

    /// Creates a set of changes.
    public init(inserted: Set<Int64> = [], updated: Set<Int64> = [], deleted: Set<Int64> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// Every id that changed in any way.
    public var all: Set<Int64> { inserted.union(updated).union(deleted) }

    mutating func insert(_ id: Int64) {
        if deleted.remove(id) != nil {
            updated.insert(id)  // deleted then re-created with the same id: it changed
        } else {
            inserted.insert(id)
        }
    }

    mutating func update(_ id: Int64) {
        if !inserted.contains(id) { updated.insert(id) }
    }

    mutating func delete(_ id: Int64) {
        updated.remove(id)
        if inserted.remove(id) == nil { deleted.insert(id) }
    }
}

/// Everything one committed transaction changed, by entity, like Core Data's
/// `NSManagedObjectContextDidSave` notification with its inserted, updated and deleted objects.
public struct ChangeSet: Sendable, Hashable {
    /// Who wrote it.
    public let source: ChangeSource
    /// The changes per entity; entities that did not change are absent.
    public let changes: [Entity: EntityChanges]

    public init(source: ChangeSource, changes: [Entity: EntityChanges]) {
        self.source = source
        self.changes = changes.filter { !$0.value.isEmpty }
    }

    /// The changes of one entity (empty when it did not change).
    public subscript(entity: Entity) -> EntityChanges { changes[entity] ?? EntityChanges() }

    /// Whether the transaction changed nothing that is observed.
    public var isEmpty: Bool { changes.isEmpty }
}

/// Which change sets a subscriber receives.
public enum ChangeFilter: Sendable, Hashable {
    /// Every change set.
    case all
    /// Only the change sets of one source.
    case only(ChangeSource)
    /// Every change set except one source's (a writer ignoring its own changes).
    case excluding(ChangeSource)

    func admits(_ source: ChangeSource) -> Bool {
        switch self {
        case .all: true
        case .only(let wanted): source == wanted
        case .excluding(let unwanted): source != unwanted
        }
    }
}

extension ChangedIDs {
    /// The ids of one entity's changes.
    public init(_ changes: EntityChanges) {
        self.init(inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted)
    }
}
