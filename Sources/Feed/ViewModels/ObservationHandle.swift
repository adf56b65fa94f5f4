import Synchronization

/// The task that follows a change stream for a view model; replacing or cancelling it stops the
/// previous one.
final class ObservationHandle: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func replace(_ new: Task<Void, Never>) {
        task.withLock { current in
            current?.cancel()
            current = new
        }
    }

    func cancel() {
        task.withLock { current in
            current?.cancel()
            current = nil
        }
    }
}
