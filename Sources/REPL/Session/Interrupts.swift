import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C while a command runs cancels that command (a refresh stops, the prompt comes back);
/// the process itself is not killed. Installed by the composition root for every mode.
final class Interrupts: Sendable {
    private let current = Mutex<Task<CommandOutput, any Error>?>(nil)
    // Touched only in init (resume) and deinit (cancel): never shared while it runs.
    nonisolated(unsafe) private let source: any DispatchSourceSignal
    private let interrupted = Atomic<Int>(0)

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in
            guard let self else { return }
            let task = self.current.withLock { $0 }
            self.interrupted.add(1, ordering: .relaxed)
            task?.cancel()
        }
        source.resume()
    }

    deinit { source.cancel() }

    /// How many times Ctrl-C was pressed.
    var count: Int { interrupted.load(ordering: .relaxed) }

    /// The command now running (`nil` when none).
    func running(_ task: Task<CommandOutput, any Error>?) {
        current.withLock { $0 = task }
    }
}
