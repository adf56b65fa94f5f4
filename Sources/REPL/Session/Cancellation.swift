import Synchronization

/// Runs `operation` but returns as soon as the calling task is cancelled (Ctrl-C), throwing
/// `CancellationError`, even when the operation itself cannot stop early (a config fetch shared
/// by every caller runs to its end in the background).
func untilCancelled<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async throws -> T {
    let pending = PendingContinuation<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            pending.set(continuation)
            if Task.isCancelled {
                pending.take()?.resume(throwing: CancellationError())
                return
            }
            Task {
                let value = await operation()
                pending.take()?.resume(returning: value)
            }
        }
    } onCancel: {
        pending.take()?.resume(throwing: CancellationError())
    }
}

/// A continuation resumed exactly once, by whichever comes first.
private final class PendingContinuation<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func set(_ value: CheckedContinuation<T, any Error>) { continuation.withLock { $0 = value } }

    func take() -> CheckedContinuation<T, any Error>? { continuation.withLock { $0.take() } }
}
