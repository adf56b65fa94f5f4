import Foundation

/// The user's web browser: `$BROWSER` (a command; `%s` stands for the address, else the address
/// is its last argument), else `xdg-open`. The address is passed as an argument, never through
/// a shell's parsing, so no character in it can run a command.
enum Browser {
    /// Why the browser could not be started.
    struct Failure: Error, LocalizedError {
        let command: String
        let reason: String
        var errorDescription: String? { "cannot open a browser with \"\(command)\": \(reason)" }
    }

    /// Starts the browser on `url` and returns once it has been started (or has exited).
    static func open(_ url: URL) throws {
        let environment = ProcessInfo.processInfo.environment
        let browser = environment["BROWSER"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        let command = browser ?? "xdg-open"
        // sh receives the address as $1: `%s` in $BROWSER is replaced by "$1".
        let script =
            command.contains("%s") ? command.replacingOccurrences(of: "%s", with: "\"$1\"") : command + " \"$1\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "tidings-browser", url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(command: command, reason: error.localizedDescription)
        }
        process.waitUntilExit()
        if process.terminationReason == .exit, process.terminationStatus == 127 {
            throw Failure(command: command, reason: "command not found")
        }
    }
}
