import Foundation
import Testing

/// Runs `body` against the loopback config server (Support/config_server.py), started for
/// this call on a random port and stopped when it returns or throws.
func withConfigServer<T>(_ body: (URL) async throws -> T) async throws -> T {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("config_server.py")
    let portFile = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tidings-config-server-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, portFile.path]
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
    for _ in 0..<400 where port == nil {
        if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n") {
            port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
            try await Task.sleep(for: .milliseconds(25))
        }
    }
    let base = try #require(port.flatMap { URL(string: "http://127.0.0.1:\($0)") }, "the config server did not start")
    return try await body(base)
}
