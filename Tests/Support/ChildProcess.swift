import Foundation

#if canImport(Glibc)
    import Glibc

/// A child process for the tests, started with `posix_spawn` directly: the part of
/// Foundation's `Process` the tests use (executable, arguments, environment, directory,
/// standard streams as a `Pipe` or a `FileHandle`, wait, status), with the same meaning.
///
/// Why not `Process`: on Linux, swift-corelibs-foundation's `Process.run()` lists
/// `/proc/self/fd` with a read past the end of readdir's buffer
/// (`findMaximumOpenFromProcSelfFD`, swiftlang/swift-corelibs-foundation#5472, fixed after
/// Swift 6.3.1). It crashed the test process with SIGSEGV about one run in five of the suites
/// that start many children. Here the child closes every descriptor above 2 with
/// `posix_spawn_file_actions_addclosefrom_np` instead, so nothing lists the directory.
final class ChildProcess: @unchecked Sendable {
    var executableURL: URL?
    var arguments: [String] = []
    /// The child's whole environment; `nil` passes this process's.
    var environment: [String: String]?
    var currentDirectoryURL: URL?
    /// A `Pipe`, a `FileHandle`, or `nil` for /dev/null (as for `Process`).
    var standardInput: Any?
    var standardOutput: Any?
    var standardError: Any?

    private(set) var processIdentifier: pid_t = 0
    private let lock = NSLock()
    /// The wait status once the child is reaped.
    private var waitStatus: Int32?

    enum TerminationReason { case exit, uncaughtSignal }

    /// Why the child did not start.
    struct SpawnError: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// Starts the child; as `Process.run()`, the parent's ends of the pipes the child uses are
    /// closed here, so a read of its output ends when it exits.
    func run() throws {
        guard let executableURL else { throw SpawnError(call: "posix_spawn", code: ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A process group of its own, as `Process` gives it.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if devNull >= 0 { close(devNull) } }
        for (stream, target) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)] {
            let source: Int32
            switch stream {
            case let pipe as Pipe:
                source =
                    target == STDIN_FILENO
                    ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
            case let handle as FileHandle where handle === FileHandle.nullDevice: source = devNull
            case let handle as FileHandle: source = handle.fileDescriptor
            default: source = devNull
            }
            try check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, source, target))
        }
        guard let addCloseFrom = Self.addCloseFrom, let addChdir = Self.addChdir else {
            throw SpawnError(call: "dlsym(posix_spawn_file_actions_addclosefrom_np)", code: ENOSYS)
        }
        try check("posix_spawn_file_actions_addclosefrom_np", addCloseFrom(&actions, 3))
        if let directory = currentDirectoryURL {
            try check("posix_spawn_file_actions_addchdir_np", addChdir(&actions, directory.path))
        }

        let argv = ([executableURL.path] + arguments).map { strdup($0) } + [nil]
        let envp =
            (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        try check("posix_spawn", posix_spawn(&pid, executableURL.path, &actions, &attributes, argv, envp))
        processIdentifier = pid

        for (stream, isInput) in [(standardInput, true), (standardOutput, false), (standardError, false)] {
            guard let pipe = stream as? Pipe else { continue }
            try? (isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
    }

    /// Whether the child has not yet ended (reaping it if it has).
    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if waitStatus != nil || processIdentifier == 0 { return false }
        var status: Int32 = 0
        if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier { waitStatus = status }
        return waitStatus == nil
    }

    /// Blocks this thread until the child ends.
    func waitUntilExit() {
        guard processIdentifier != 0 else { return }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(processIdentifier, &status, 0) } while result == -1 && errno == EINTR
        lock.lock()
        defer { lock.unlock() }
        // ECHILD: `isRunning` reaped it, under the lock, and kept its status.
        if result == processIdentifier { waitStatus = status }
    }

    /// Waits for the child, sleeping between looks (2 ms). With `Process`, `waitUntilExit()`
    /// spun its thread's run loop, a busy loop on a thread without run loop sources (every
    /// Swift concurrency thread); this keeps the tests' waits the same everywhere.
    func waitWithoutSpinning() {
        while isRunning { usleep(2_000) }
    }

    /// The exit status, or the number of the signal that ended it (as `Process`).
    var terminationStatus: Int32 {
        let status = settled()
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    var terminationReason: TerminationReason { settled() & 0x7f == 0 ? .exit : .uncaughtSignal }

    /// Sends SIGTERM.
    func terminate() { _ = kill(processIdentifier, SIGTERM) }

    private func settled() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        return waitStatus ?? 0
    }

    private func check(_ call: String, _ code: Int32) throws {
        if code != 0 { throw SpawnError(call: call, code: code) }
    }

    // glibc 2.34's closefrom and 2.29's chdir file actions, which Swift's Glibc module does
    // not declare (they need _GNU_SOURCE / _DEFAULT_SOURCE in the importing C module).
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addCloseFrom = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
    private static let addChdir = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: AddChdir.self)
    }
}
#else
    /// On Apple platforms Foundation's `Process` closes the child's descriptors with
    /// POSIX_SPAWN_CLOEXEC_DEFAULT and has no such bug.
    typealias ChildProcess = Process

    extension Process {
        func waitWithoutSpinning() {
            while isRunning { usleep(2_000) }
            waitUntilExit()
        }
    }
#endif
