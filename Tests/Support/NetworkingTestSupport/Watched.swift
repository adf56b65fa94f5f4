import Synchronization

/// A value that tasks can wait on until it satisfies a condition: a test awaits the state it
/// needs (two requests arrived, a feed answered, every caller asked for a token) instead of
/// polling for it with sleeps. Whoever changes the value through `update` wakes the waiters
/// whose condition now holds.
///
/// A waiting task that is cancelled stops waiting and throws `CancellationError`, so a test's
/// time limit ends a wait that a regression left unanswered.
public final class Watched<Value: Sendable>: Sendable {
    private struct Waiter {
        let isSatisfied: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Value, any Error>
    }

    private struct State {
        var value: Value
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    /// A watched `value`.
    public init(_ value: Value) {
        state = Mutex(State(value: value))
    }

    /// The value now.
    public var value: Value { state.withLock { $0.value } }

    /// Changes the value with `body` and wakes every waiter whose condition now holds; returns
    /// what `body` returns.
    @discardableResult
    public func update<Outcome: Sendable>(_ body: (inout Value) -> Outcome) -> Outcome {
        let (result, woken, value) = state.withLock { state -> (Outcome, [Waiter], Value) in
            let result = body(&state.value)
            let value = state.value
            let ready = state.waiters.filter { $0.value.isSatisfied(value) }
            for id in ready.keys { state.waiters[id] = nil }
            return (result, Array(ready.values), value)
        }
        for waiter in woken { waiter.continuation.resume(returning: value) }
        return result
    }

    /// Waits until the value satisfies `isSatisfied` (at once if it does now), and returns the
    /// value that did.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    @discardableResult
    public func wait(until isSatisfied: @escaping @Sendable (Value) -> Bool) async throws -> Value {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                // Checked under the same lock as the waiters, so a cancellation either finds this
                // waiter registered or keeps it from registering.
                let outcome = state.withLock { state -> Result<Value, CancellationError>? in
                    if isSatisfied(state.value) { return .success(state.value) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = Waiter(isSatisfied: isSatisfied, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome.mapError { $0 as any Error }) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}

/// A gate that tasks wait at until it opens, once and for good: a test holds work at a point
/// with it (a request the server answers only then) and opens it when the event it is waiting
/// for has happened. A waiting task that is cancelled stops waiting (`CancellationError`).
public final class Gate: Sendable {
    private let opened = Watched(false)

    /// A closed gate.
    public init() {}

    /// Whether it has been opened.
    public var isOpen: Bool { opened.value }

    /// Opens the gate: every task waiting at it goes on, and none waits at it again.
    public func open() { opened.update { $0 = true } }

    /// Waits until the gate is open (at once if it is).
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public func wait() async throws { try await opened.wait { $0 } }
}
