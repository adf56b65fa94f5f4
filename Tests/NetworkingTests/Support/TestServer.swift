import Foundation
import Synchronization
import Testing

/// Runs `body` against the loopback test server (Support/test_server.py), started for this
/// call on a random port and stopped when it returns or throws.
func withTestServer<T>(_ body: (URL) async throws -> T) async throws -> T {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("test_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    defer {
        process.terminate()
        process.waitUntilExit()
    }
    var text = ""
    while !text.contains("\n") {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        text += String(decoding: chunk, as: UTF8.self)
    }
    let port = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "the test server did not start")
    return try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
}

/// A retry policy that records the waits it is asked for instead of sleeping.
final class RecordedSleeps: Sendable {
    private let waits = Mutex<[Duration]>([])
    var all: [Duration] { waits.withLock { $0 } }
    func record(_ duration: Duration) { waits.withLock { $0.append(duration) } }
}
