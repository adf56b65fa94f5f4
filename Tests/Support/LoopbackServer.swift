import Foundation
import Testing

/// Runs `body` against a loopback HTTP server: the Python `script` is started with `arguments`
/// and the path of a file it must write its port to, and is stopped (its stdin, the lifeline,
/// closes) when `body` returns or throws. Shared by the test targets through symbolic links in
/// their `Support` folders.
func withLoopbackServer<T>(
    script: URL, arguments: [String] = [], _ body: (URL) async throws -> T
) async throws -> T {
    let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-port-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path] + arguments + [portFile.path]
    process.standardOutput = FileHandle.nullDevice
    let lifeline = Pipe()  // the server stops when this closes
    process.standardInput = lifeline
    try process.run()
    defer {
        try? lifeline.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: portFile)
    }
    // The server writes its port once it listens; wait for it (bounded, so a server that
    // cannot start fails the test instead of hanging it).
    var port: Int?
    let deadline = ContinuousClock.now + .seconds(60)
    while port == nil && ContinuousClock.now < deadline {
        if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n") {
            port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
            try await Task.sleep(for: .milliseconds(25))
        }
    }
    let base = try #require(
        port.flatMap { URL(string: "http://127.0.0.1:\($0)") }, "the server \(script.lastPathComponent) did not start")
    return try await body(base)
}
