import Foundation
internal import GRDB
import Models

extension AppDatabase {
    /// The ids of one entity that each committed transaction changed; transactions that did
    /// not touch the entity are skipped.
    public func changes(of entity: Entity, _ filter: ChangeFilter = .all) -> AsyncStream<EntityChanges> {
        self.changes(filter).compactMapped { set in set[entity].isEmpty ? nil : set[entity] }
    }

    /// One object now and after every committed change to it; `nil` once when it is deleted
    /// (or does not exist), and then the stream ends. The stream subscribes before reading the
    /// first value, so no change is missed (one may be seen twice).
    func observe<T: Sendable>(
        _ entity: Entity, id: Int64, fetch: @escaping @Sendable (Database) throws -> T?
    ) -> AsyncStream<T?> {
        let changes = self.changes(.all)
        return AsyncStream { continuation in
            let task = Task {
                do {
                    guard let first = try await self.read(fetch) else {
                        continuation.yield(nil)
                        continuation.finish()
                        return
                    }
                    continuation.yield(first)
                    for await set in changes {
                        let entityChanges = set[entity]
                        if entityChanges.deleted.contains(id) {
                            continuation.yield(nil)
                            break
                        }
                        guard entityChanges.updated.contains(id) || entityChanges.inserted.contains(id) else {
                            continue
                        }
                        let value = try await self.read(fetch)
                        continuation.yield(value)
                        if value == nil { break }
                    }
                } catch {
                    // A read failed (the database went away); the observation ends.
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
