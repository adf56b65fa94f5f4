import Foundation

/// Runs `body` against the loopback config server (Support/config_server.py), started for
/// this call on a random port and stopped when it returns or throws.
func withConfigServer<T>(_ body: (URL) async throws -> T) async throws -> T {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("config_server.py")
    return try await withLoopbackServer(script: script, body)
}
