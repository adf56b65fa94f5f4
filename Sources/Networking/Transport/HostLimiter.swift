package import Foundation
import Synchronization

/// At most `limit` exchanges with one origin (scheme, host and port) at a time, for the network
/// transports: a reader subscribed to 300 feeds of one host opens at most that many connections
/// to it, however many feeds refresh at once. The others wait, in order of arrival, without
/// holding a thread; a waiting task that is cancelled stops waiting at once (`.cancelled`) and
/// never takes a slot.
package final class HostLimiter: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        /// Exchanges running, by origin (no entry: none).
        var running: [String: Int] = [:]
        /// Tasks waiting for a slot, by origin, first come first.
        var waiting: [String: [Waiter]] = [:]
        var nextID: UInt64 = 0
        /// Told the origin whenever a task starts waiting (see `observeWaits`).
        var onWait: (@Sendable (String) -> Void)?
    }

    /// The most exchanges with one origin at a time (at least 1).
    package let limit: Int
    private let state = Mutex(State())

    /// A limiter of `limit` exchanges per origin (a smaller number than 1 counts as 1).
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The origin of `url` as the limiter counts it: lower-cased scheme and host, and the port
    /// (80 or 443 when the URL names none), as `scheme://host:port`.
    package static func origin(of url: URL) -> String {
        let scheme = (url.scheme ?? "").lowercased()
        let host = (url.host ?? "").lowercased()
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// Calls `observer` with the origin each time a task starts waiting for a slot, once it is
    /// queued (replacing any earlier observer): a test awaits a queued request with it instead
    /// of sleeping.
    package func observeWaits(_ observer: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.onWait = observer }
    }

    /// How many exchanges with `origin` hold a slot now.
    package func running(for origin: String) -> Int {
        state.withLock { $0.running[origin, default: 0] }
    }

    /// Runs `body` once fewer than `limit` exchanges with `origin` are running, and counts it as
    /// one of them until it returns.
    ///
    /// - Throws: `.cancelled` when the calling task is cancelled before a slot is free (or as it
    ///   gets one); whatever `body` throws.
    package func withSlot<T>(for origin: String, _ body: () async throws(NetworkError) -> T)
        async throws(NetworkError) -> T
    {
        try await acquire(origin)
        defer { release(origin) }
        if Task.isCancelled { throw .cancelled }
        return try await body()
    }

    /// Takes a slot for `origin`, waiting for one when all are taken.
    private func acquire(_ origin: String) async throws(NetworkError) {
        let (free, id) = state.withLock { state -> (Bool, UInt64) in
            state.nextID += 1
            if state.running[origin, default: 0] < limit {
                state.running[origin, default: 0] += 1
                return (true, state.nextID)
            }
            return (false, state.nextID)
        }
        if free { return }
        // Resumed with true once a finishing exchange hands its slot over, false when cancelled.
        // The cancellation flag is checked under the same lock as the queue, so a cancellation
        // either finds the waiter queued or keeps it from queueing.
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let (queued, onWait) = state.withLock { state -> (Bool, (@Sendable (String) -> Void)?) in
                    if Task.isCancelled { return (false, nil) }
                    state.waiting[origin, default: []].append(Waiter(id: id, continuation: continuation))
                    return (true, state.onWait)
                }
                if queued { onWait?(origin) } else { continuation.resume(returning: false) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiting[origin]?.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = state.waiting[origin]?.remove(at: index)
                if state.waiting[origin]?.isEmpty == true { state.waiting[origin] = nil }
                return waiter
            }
            waiter?.continuation.resume(returning: false)
        }
        if !granted { throw .cancelled }
    }

    /// Gives a slot for `origin` back: to the first waiting task, else to no one.
    private func release(_ origin: String) {
        let next = state.withLock { state -> Waiter? in
            if var queue = state.waiting[origin], !queue.isEmpty {
                let first = queue.removeFirst()
                state.waiting[origin] = queue.isEmpty ? nil : queue
                return first  // the slot passes on: the running count stays
            }
            let running = state.running[origin, default: 1] - 1
            state.running[origin] = running > 0 ? running : nil
            return nil
        }
        next?.continuation.resume(returning: true)
    }
}
