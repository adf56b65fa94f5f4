import Foundation

/// The user's web browser: `$BROWSER` (a command; `%s` stands for the address, else the address
/// is its last argument), else `xdg-open`. The address is passed as an argument, never through
/// a shell's parsing, so no character in it can run a command. A terminal browser (w3m, lynx)
/// holds the terminal while it runs and reads the keyboard (see `TerminalJob`).
enum Browser {
    /// Why the browser could not be started.
    struct Failure: Error, LocalizedError {
        let command: String
        let reason: String
        var errorDescription: String? { "cannot open a browser with \"\(command)\": \(reason)" }
    }

    /// Starts the browser on `url` and returns once it has been started (or has exited).
    /// `command` is the `browser` setting in force ($BROWSER or `xdg-open` unless set).
    static func open(_ url: URL, command: String) throws {
        let environment = ProcessInfo.processInfo.environment
        // sh receives the address as $1: `%s` in $BROWSER is replaced by "$1".
        let script =
            command.contains("%s") ? command.replacingOccurrences(of: "%s", with: "\"$1\"") : command + " \"$1\""
        let job: TerminalJob.Running
        do {
            job = try TerminalJob(script: script, arguments: [url.absoluteString], environment: environment)
                .start(feedingInput: false)
        } catch {
            throw Failure(command: command, reason: error.reason)
        }
        if job.finish() == 127 {
            throw Failure(command: command, reason: "command not found")
        }
    }
}
