import Foundation
import Testing

/// Runs `body` against Tests/Support/feed_server.py serving `directory` on 127.0.0.1, started
/// for this call and stopped when it returns or throws.
func withFeedServer<T>(serving directory: URL, _ body: (URL) async throws -> T) async throws -> T {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Support/feed_server.py").standardizedFileURL
    let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-port-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, directory.path, portFile.path]
    process.standardOutput = FileHandle.nullDevice
    let lifeline = Pipe()  // the server stops when this closes
    process.standardInput = lifeline
    try process.run()
    defer {
        try? lifeline.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: portFile)
    }
    var port: Int?
    for _ in 0..<400 where port == nil {
        if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n") {
            port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
            try await Task.sleep(for: .milliseconds(25))
        }
    }
    let base = try #require(port.flatMap { URL(string: "http://127.0.0.1:\($0)") }, "the feed server did not start")
    return try await body(base)
}
