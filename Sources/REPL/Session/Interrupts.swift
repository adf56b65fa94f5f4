import CInterrupts
import CLibEdit
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C: while a command runs, it cancels that command (a refresh stops, the prompt comes
/// back, a script ends with status 130); at the prompt it drops the line being typed. The
/// process itself is not killed.
///
/// The signal handler (in the C shim) writes a byte down a pipe; a thread reading the pipe
/// cancels the running command. Installed once by the composition root.
final class Interrupts: Sendable {
    /// Cancels the work now running, if any.
    private let current = Mutex<(@Sendable () -> Void)?>(nil)

    /// Installs the handler. With `exitWhenIdle` (scripts), a Ctrl-C while no command runs (a
    /// script waiting for its next line on standard input) ends the process with status 130.
    init(exitWhenIdle: Bool) {
        let descriptor = tidings_install_sigint()
        guard descriptor >= 0 else { return }
        let thread = Thread { [weak self] in
            var byte: UInt8 = 0
            while read(descriptor, &byte, 1) == 1 {
                if let cancel = self?.current.withLock({ $0 }) {
                    cancel()
                } else if exitWhenIdle {
                    exit(130)
                }
            }
        }
        thread.name = "tidings-interrupts"
        thread.start()
    }

    /// The work now running: a Ctrl-C cancels it.
    func running<Success: Sendable>(_ task: Task<Success, any Error>) {
        current.withLock { $0 = { task.cancel() } }
    }

    /// Nothing runs any more: a Ctrl-C is the idle kind again.
    func idle() {
        current.withLock { $0 = nil }
    }
}
