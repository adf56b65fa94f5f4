import Synchronization

/// Holds a view model's current value, readable synchronously from any thread, and hands every
/// subscriber its own `AsyncStream` of the values that follow.
///
/// A new subscriber first receives the current value. Streams end when the publisher is
/// released or `finish()` is called.
package final class StatePublisher<Value: Sendable>: Sendable {
    /// The value and who is listening.
    private struct Subscription {
        var value: Value
        var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextID = 0
    }

    private let state: Mutex<Subscription>

    package init(_ initial: Value) {
        state = Mutex(Subscription(value: initial))
    }

    deinit { finish() }

    package var value: Value { state.withLock { $0.value } }

    /// Sets the value and sends it to every subscriber.
    package func send(_ value: Value) {
        let subscribers = state.withLock { state in
            state.value = value
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(value) }
    }

    /// A stream of values for one subscriber, starting with the current one.
    package func values() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            continuation.yield(state.value)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every subscriber's stream.
    package func finish() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
