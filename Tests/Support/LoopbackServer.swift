import Foundation
import Testing

/// Runs `body` against a loopback HTTP server: the Python `script` is started with `arguments`
/// and the path of a file it must write its port to, and is stopped (its stdin, the lifeline,
/// closes) when `body` returns or throws. Shared by the test targets through symbolic links in
/// their `Support` folders.
/// Waits for a server whose lifeline was closed to end: it should at once; after 5 s it is
/// sent SIGTERM, after 5 s more SIGKILL, so that a server that missed the end of its lifeline
/// cannot hang the test run. (Its lifeline's write end is close-on-exec as well: a server
/// started beside it by another test would otherwise hold it, and each would wait for the
/// other.)
func stopServer(_ process: ChildProcess) {
    for signal in [Int32(0), SIGTERM, SIGKILL] {
        if signal != 0, process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard process.isRunning else { break }
    }
    if !process.isRunning { process.waitWithoutSpinning() }
}

func withLoopbackServer<T>(
    script: URL, arguments: [String] = [], _ body: (URL) async throws -> T
) async throws -> T {
    let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-port-\(UUID().uuidString)")
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path] + arguments + [portFile.path]
    process.standardOutput = FileHandle.nullDevice
    let lifeline = Pipe()  // the server stops when this closes
    // Only this process holds the write end: a server started beside this one by another test
    // must not inherit it, or this server would wait for that one to end, and it for this one.
    _ = fcntl(lifeline.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
    process.standardInput = lifeline
    try process.run()
    defer {
        try? lifeline.fileHandleForWriting.close()
        stopServer(process)
        try? FileManager.default.removeItem(at: portFile)
    }
    // The server writes its port once it listens; wait for it (bounded, so a server that
    // cannot start fails the test instead of hanging it).
    var port: Int?
    func readPort() {
        if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n") {
            port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
    let deadline = ContinuousClock.now + .seconds(120)
    while port == nil && ContinuousClock.now < deadline {
        readPort()
        if port == nil { try await Task.sleep(for: .milliseconds(25)) }
    }
    // A look after the deadline too: the tests' threads can all be held by synchronous waits
    // (a binary run, a tool), and this one may wake late to a server that started in time.
    if port == nil { readPort() }
    let base = try #require(
        port.flatMap { URL(string: "http://127.0.0.1:\($0)") }, "the server \(script.lastPathComponent) did not start")
    return try await body(base)
}
