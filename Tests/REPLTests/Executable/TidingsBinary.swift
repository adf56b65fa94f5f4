import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `tidings` executable, run as a user would run it.
enum TidingsBinary {
    /// Where `swift build` put the executable: `$TIDINGS_BIN`, else beside the test bundle.
    static var url: URL? {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["TIDINGS_BIN"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        if let test = Bundle.main.executableURL {
            candidates.append(test.deletingLastPathComponent().appendingPathComponent("tidings"))
            candidates.append(
                test.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tidings"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tidings"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// What one run printed and how it ended.
    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    /// Runs the binary with `arguments`, feeding `input` on standard input (a pipe, so not a
    /// terminal), and waits for it to exit. With `umask`, it runs under that umask (set by a
    /// shell that then execs it), whatever this process's is.
    static func run(
        _ arguments: [String], input: String = "", environment: [String: String] = [:], directory: URL? = nil,
        umask mask: String? = nil
    ) throws -> Result {
        let process = ChildProcess()
        if let directory { process.currentDirectoryURL = directory }
        let binary = try #require(url, "the tidings executable was not built")
        if let mask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(mask) && exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TIDINGS_HOME")
        env.merge(environment) { _, new in new }
        process.environment = env
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, out: String(decoding: out, as: UTF8.self),
            err: String(decoding: err, as: UTF8.self))
    }
}

extension TidingsBinary {
    /// Starts the binary with `arguments` and `environment` over this process's, its output
    /// discarded, and returns it running.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Kills `process` with SIGKILL `delay` seconds from now and waits for it to end. Timed on
    /// a thread of its own: on a loaded machine a task's sleep can resume long after the work
    /// it should interrupt has finished (all 16 kills of a test once landed too late).
    static func kill(_ process: ChildProcess, after delay: Double) async {
        let pid = process.processIdentifier
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                usleep(UInt32(max(0, delay) * 1_000_000))
                _ = Glibc.kill(pid, SIGKILL)
                done.resume()
            }
        }
        process.waitUntilExit()
    }
}

/// The binary running in a real pseudo-terminal, driven like a person at the keyboard.
final class TerminalSession {
    private let process = ChildProcess()
    private let master: Int32
    private var screen = ""
    /// Everything the terminal has shown since the start, for failure messages.
    private(set) var transcript = ""
    /// What the terminal showed before the text the last successful `waitFor` found.
    private(set) var lastOutput = ""

    /// Starts `tidings` with its standard input, output and error on a new pseudo-terminal of
    /// `columns` columns. With `controllingTerminal`, it runs as a login shell runs it: in a
    /// session of its own whose controlling terminal is the pseudo-terminal, its process group
    /// the terminal's foreground group (through util-linux `setsid --ctty`; then
    /// `processIdentifier` is setsid's, which waits for tidings and exits with its status).
    init(
        arguments: [String], columns: UInt16 = 100, environment extra: [String: String] = [:],
        standardOutput: Pipe? = nil, controllingTerminal: Bool = false, unset: [String] = []
    ) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.ENOTTY) }
        self.master = master
        let flags = fcntl(master, F_GETFL)
        _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)
        let binary = try #require(TidingsBinary.url, "the tidings executable was not built")
        if controllingTerminal {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = ["--ctty", "--wait", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment.removeValue(forKey: "TIDINGS_HOME")
        // A crash prints its backtrace and ends, instead of waiting at the terminal for a key.
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no"
        environment.merge(extra) { _, new in new }
        for name in unset { environment.removeValue(forKey: name) }
        process.environment = environment
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.standardInput = handle
        process.standardOutput = standardOutput ?? handle
        process.standardError = handle
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        // With a controlling terminal, closing it hangs up the session: tidings and whatever it
        // started get SIGHUP, as when a terminal window is closed.
        close(master)
    }

    /// Resizes the terminal, as dragging its window does (the program gets SIGWINCH).
    func resize(columns: UInt16, rows: UInt16 = 24) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        kill(process.processIdentifier, SIGWINCH)
    }

    /// The process id, to signal it as a terminal would.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Types `text` (use `\r` for Enter, `\t` for Tab, `\u{1b}[A` for Up).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in _ = write(master, buffer.baseAddress, buffer.count) }
    }

    /// Reads the terminal until `text` has appeared since the last wait (or 120 s pass); returns
    /// whether it did. The bound only keeps a broken build from hanging the suite: it is long
    /// because a loaded machine running the suite in parallel can take tens of seconds.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 120) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            drain()
            if let range = screen.range(of: text) {
                lastOutput = String(screen[..<range.lowerBound])
                screen.removeSubrange(screen.startIndex..<range.upperBound)
                return true
            }
            usleep(20_000)
        }
        return false
    }

    /// What has been printed since the last successful wait.
    var pending: String {
        drain()
        return screen
    }

    /// Waits for the process to exit and returns its status, or `nil` if it is still running.
    func exitStatus(seconds: Double = 120) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline {
            drain()
            usleep(20_000)
        }
        return process.isRunning ? nil : process.terminationStatus
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            screen += text
            transcript += text
        }
    }
}
