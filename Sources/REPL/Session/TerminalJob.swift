import CTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program the session hands the terminal to, as a shell runs a foreground job: a pager or a
/// browser. When the session holds the terminal, the program runs in a process group of its
/// own that becomes the terminal's foreground group (so it can read keys and draw, and Ctrl-C
/// reaches it, not the session), and the session takes the terminal back when it ends.
/// Foundation's `Process` cannot do this: it starts every child in a group of its own without
/// giving it the terminal, so `less` stops at its first read of the keyboard.
struct TerminalJob {
    /// Why the program could not be started.
    struct Failure: Error {
        let reason: String
    }

    /// The shell script to run with `/bin/sh -c`, and the positional arguments after `$0`.
    var script: String
    var arguments: [String] = []
    var environment: [String: String]

    /// Starts the program and returns a running job. With `feedingInput`, its standard input is
    /// a pipe that `finish(writing:)` writes; otherwise it reads the session's standard input
    /// when that is a terminal, else `/dev/null`.
    func start(feedingInput: Bool) throws(Failure) -> Running {
        let terminal = Self.terminalDescriptor()
        let foreground = terminal >= 0 && tidings_is_foreground(terminal) != 0
        var pipeEnds: [Int32] = [-1, -1]
        var nullInput: Int32 = -1
        if feedingInput {
            guard pipe(&pipeEnds) == 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        } else if isatty(STDIN_FILENO) == 0 {
            nullInput = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        // The shell catches SIGINT and SIGQUIT (a caught signal is default again in the programs it
        // starts): like an interactive shell, it then waits for the program Ctrl-C reached, instead
        // of dying and leaving the program in a group that no longer holds the terminal.
        let argv = ["/bin/sh", "-c", "trap : INT QUIT\n" + script, "tidings"] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        let pid = Self.withCStrings(argv) { cArgv in
            Self.withCStrings(envp) { cEnvp in
                tidings_spawn_job(
                    "/bin/sh", cArgv, cEnvp, feedingInput ? pipeEnds[0] : nullInput,
                    feedingInput ? pipeEnds[1] : -1, terminal, foreground ? 1 : 0)
            }
        }
        let spawnError = errno
        if feedingInput { close(pipeEnds[0]) }
        if nullInput >= 0 { close(nullInput) }
        guard pid > 0 else {
            if feedingInput { close(pipeEnds[1]) }
            throw Failure(reason: String(cString: strerror(spawnError)))
        }
        return Running(pid: pid, input: feedingInput ? pipeEnds[1] : -1, terminal: terminal, foreground: foreground)
    }

    struct Running {
        let pid: pid_t
        let input: Int32
        let terminal: Int32
        let foreground: Bool

        /// Writes `text` to the program's standard input (when it reads it), closes it, waits
        /// for the program to end and takes the terminal back; returns its exit status (128 +
        /// the signal when a signal ended it).
        @discardableResult
        func finish(writing text: Data = Data()) -> Int32 {
            if input >= 0 {
                // A pager that quits before reading everything closes the pipe: SIGPIPE is
                // ignored meanwhile, and the write's EPIPE ends the writing.
                let previous = signal(SIGPIPE, SIG_IGN)
                _ = FileOutput.writeFully(text, to: input)
                close(input)
                signal(SIGPIPE, previous)
            }
            let status = tidings_wait_job(pid, terminal, foreground ? 1 : 0)
            if terminal >= 0 && terminal > STDERR_FILENO { close(terminal) }
            return status
        }
    }

    /// The controlling terminal, when the session has one: `/dev/tty` opened anew, so that the
    /// descriptor refers to the terminal whatever standard streams were redirected.
    private static func terminalDescriptor() -> Int32 {
        open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R)
        -> R
    {
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { pointers[index] = strdup(string) }
        pointers[strings.count] = nil
        defer {
            for index in 0..<strings.count { free(pointers[index]) }
            pointers.deallocate()
        }
        return body(pointers)
    }
}
