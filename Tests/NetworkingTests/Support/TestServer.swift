import Foundation
import Synchronization
import Testing

/// Runs `body` against the loopback test server (Support/test_server.py), started for this
/// call on a random port and stopped when it returns or throws.
func withTestServer<T>(_ body: (URL) async throws -> T) async throws -> T {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("test_server.py")
    return try await withLoopbackServer(script: script, body)
}

/// A retry policy that records the waits it is asked for instead of sleeping.
final class RecordedSleeps: Sendable {
    private let waits = Mutex<[Duration]>([])
    var all: [Duration] { waits.withLock { $0 } }
    func record(_ duration: Duration) { waits.withLock { $0.append(duration) } }
}
