import Foundation
internal import GRDB
import Synchronization

/// Collects the rows each transaction changes and, once it commits, hands one `ChangeSet` to
/// every subscriber's own `AsyncStream`. A rolled-back transaction notifies nobody.
///
/// Inserts, updates and deletes of the entity tables (including those made by foreign-key
/// cascades) arrive through SQLite's update hook. Status and completion rows have no id a
/// caller knows, so the repositories that write them report the article or task they belong
/// to with `record(_:_:)`.
final class ChangeTracker: TransactionObserver, Sendable {
    private struct Pending {
        var source = ChangeSource.app
        var changes: [Entity: EntityChanges] = [:]
    }

    private struct Subscriber {
        let filter: ChangeFilter
        let continuation: AsyncStream<ChangeSet>.Continuation
    }

    /// The transaction in progress. Only touched on the writer's serial queue (GRDB calls
    /// observers there, and repositories call `begin`/`record` inside their write blocks); the
    /// mutex makes that guarantee checkable rather than assumed.
    private let pending = Mutex(Pending())
    /// How many transactions that changed feeds, articles or tasks this process committed.
    private let commits = Mutex(0)
    var commitCount: Int { commits.withLock { $0 } }
    private let subscribers = Mutex<[UUID: Subscriber]>([:])

    private static let tables: [String: Entity] = ["feed": .feed, "article": .article, "task": .task]

    /// Names the writer of the transaction that is starting.
    func begin(source: ChangeSource) {
        pending.withLock { $0.source = source }
    }

    /// Reports an update of objects whose own rows did not change (a status, a completion).
    func record(_ entity: Entity, updated ids: some Sequence<Int64>) {
        pending.withLock { pending in
            for id in ids { pending.changes[entity, default: EntityChanges()].update(id) }
        }
    }

    /// A new stream of the change sets `filter` admits, starting with the next commit.
    func changes(_ filter: ChangeFilter) -> AsyncStream<ChangeSet> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeSet.self)
        let id = UUID()
        subscribers.withLock { $0[id] = Subscriber(filter: filter, continuation: continuation) }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: TransactionObserver

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        Self.tables[eventKind.tableName] != nil
    }

    func databaseDidChange(with event: DatabaseEvent) {
        guard let entity = Self.tables[event.tableName] else { return }
        let id = event.rowID
        pending.withLock { pending in
            switch event.kind {
            case .insert: pending.changes[entity, default: EntityChanges()].insert(id)
            case .update: pending.changes[entity, default: EntityChanges()].update(id)
            case .delete: pending.changes[entity, default: EntityChanges()].delete(id)
            }
        }
    }

    func databaseDidCommit(_ db: Database) {
        let finished = pending.withLock { pending in
            defer { pending = Pending() }
            return ChangeSet(source: pending.source, changes: pending.changes)
        }
        guard !finished.isEmpty else { return }
        commits.withLock { $0 &+= 1 }
        let targets = subscribers.withLock { $0.values.filter { $0.filter.admits(finished.source) } }
        for subscriber in targets { subscriber.continuation.yield(finished) }
    }

    func databaseDidRollback(_ db: Database) {
        pending.withLock { $0 = Pending() }
    }
}
