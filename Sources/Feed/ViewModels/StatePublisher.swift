import Synchronization

/// Holds a view model's current value, readable synchronously from any thread, and hands every
/// subscriber its own `AsyncStream` of the values that follow.
///
/// A new subscriber first receives the current value. Streams end when the publisher is
/// released or `finish()` is called.
package final class StatePublisher<Value: Sendable>: Sendable {
    private struct Storage {
        var value: Value
        var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
    }

    private let storage: Mutex<Storage>

    package init(_ initial: Value) {
        storage = Mutex(Storage(value: initial))
    }

    deinit { finish() }

    /// The current value.
    package var value: Value { storage.withLock { $0.value } }

    /// Sets the value and sends it to every subscriber.
    package func send(_ value: Value) {
        let subscribers = storage.withLock { storage in
            storage.value = value
            return Array(storage.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(value) }
    }

    /// A stream of values for one subscriber, starting with the current one.
    package func values() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        let id = storage.withLock { storage in
            let id = storage.nextID
            storage.nextID += 1
            storage.subscribers[id] = continuation
            continuation.yield(storage.value)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.storage.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every subscriber's stream.
    package func finish() {
        let subscribers = storage.withLock { storage in
            defer { storage.subscribers = [:] }
            return Array(storage.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
