internal import GRDB
import Synchronization

/// Writes that may share one transaction (group commit): while the writer is busy, the writes
/// that arrive wait together, and the next transaction runs them all. A cold refresh merges
/// hundreds of feeds at once; one transaction a feed wrote the pages they share (the right
/// edges of the article table and its indexes, the feed table) to the write-ahead log again at
/// every commit.
///
/// Each write is still whole or nothing, and apart from the others: when one throws, or the
/// transaction cannot commit, nothing of it is stored, and each of its writes runs again in a
/// transaction of its own, so that only the one that fails fails. (Not savepoints: SQLite keeps
/// the pages a savepoint changes in a temporary file, which for a refresh of 250 feeds was
/// 585 MB written to /var/tmp.) A write must therefore do the same when run again. A caller
/// gets its result once the transaction holding its write has committed. The writes run in a
/// task of their own, which a cancelled caller does not reach: what a caller handed over is
/// committed or refused whole.
final class GroupCommit: Sendable {
    /// One write waiting for the writer, its outcome kept until the transaction ends.
    private struct Pending: Sendable {
        /// The source its changes are tagged with: only writes of one source share a transaction.
        let source: ChangeSource
        /// How much it writes (articles): a transaction takes writes up to `maxWeight`.
        let weight: Int
        /// Runs the write, keeping its result.
        let perform: @Sendable (Database) throws -> Void
        /// Hands the caller its outcome (`nil`: the transaction committed) .
        let complete: @Sendable ((any Error)?) -> Void
    }

    private struct State {
        var queue: [Pending] = []
        var flushing = false
    }

    private let writer: any DatabaseWriter
    private let tracker: ChangeTracker
    /// The most weight one transaction takes (a single heavier write runs alone).
    let maxWeight: Int
    private let state = Mutex(State())

    init(writer: any DatabaseWriter, tracker: ChangeTracker, maxWeight: Int = 5_000) {
        self.writer = writer
        self.tracker = tracker
        self.maxWeight = maxWeight
    }

    /// Runs `updates` in a transaction it may share with other writes, tagged with `source`, and
    /// returns its result once that transaction has committed. `updates` may run twice (see the
    /// type's documentation): it must do the same on a database rolled back to where it began.
    func write<T: Sendable>(
        source: ChangeSource, weight: Int, _ updates: @escaping @Sendable (Database) throws -> T
    ) async -> Result<T, any Error> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            let outcome = Mutex<Result<T, any Error>?>(nil)
            let pending = Pending(
                source: source, weight: weight,
                perform: { db in
                    let value = try updates(db)
                    outcome.withLock { $0 = .success(value) }
                },
                complete: { commitError in
                    if let commitError {
                        continuation.resume(returning: .failure(commitError))
                    } else {
                        continuation.resume(returning: outcome.withLock { $0 } ?? .failure(DatabaseError()))
                    }
                })
            let start = state.withLock { state in
                state.queue.append(pending)
                guard !state.flushing else { return false }
                state.flushing = true
                return true
            }
            if start { Task { await self.flush() } }
        }
    }

    /// How many writes wait for the writer (for tests).
    var waiting: Int { state.withLock { $0.queue.count } }

    /// Runs the waiting writes, a transaction at a time, until none waits. Each transaction
    /// takes the writes waiting when it begins, not when it was asked for: all that arrived
    /// while the writer was busy.
    private func flush() async {
        while true {
            // No transaction without a write waiting (GRDB reports even an empty one committed).
            let more = state.withLock { state in
                if state.queue.isEmpty { state.flushing = false }
                return state.flushing
            }
            guard more else { return }
            let taken = Mutex<[Pending]>([])
            do {
                try await writer.write { db in
                    let batch = self.take()
                    taken.withLock { $0 = batch }
                    try self.perform(batch, db)
                }
                let batch = taken.withLock { $0 }
                guard !batch.isEmpty else { return }
                for pending in batch { pending.complete(nil) }
            } catch {
                var batch = taken.withLock { $0 }
                // The transaction did not begin: the writes waiting fail with its error.
                if batch.isEmpty { batch = take() }
                guard batch.count > 1 else {
                    guard let only = batch.first else { return }
                    only.complete(error)
                    continue
                }
                // Nothing of the batch is stored: each write on its own, so that only the one that
                // failed fails.
                for pending in batch {
                    do {
                        try await writer.write { db in try self.perform([pending], db) }
                        pending.complete(nil)
                    } catch {
                        pending.complete(error)
                    }
                }
            }
        }
    }

    /// The writes waiting, in arrival order, while they share the first one's source and fit in
    /// `maxWeight` (the first always); none, and the flush over, when none waits.
    private func take() -> [Pending] {
        state.withLock { state -> [Pending] in
            guard let first = state.queue.first else {
                state.flushing = false
                return []
            }
            var count = 1
            var weight = first.weight
            for next in state.queue.dropFirst() {
                guard next.source == first.source, weight + next.weight <= maxWeight else { break }
                weight += next.weight
                count += 1
            }
            let batch = Array(state.queue.prefix(count))
            state.queue.removeFirst(count)
            return batch
        }
    }

    /// Runs `batch` in the transaction of `db`, its changes tagged with its first write's source.
    private func perform(_ batch: [Pending], _ db: Database) throws {
        guard let source = batch.first?.source else { return }
        tracker.begin(source: source)
        for pending in batch { try pending.perform(db) }
    }
}
