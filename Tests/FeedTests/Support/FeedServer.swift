import Foundation

/// Runs `body` against Tests/Support/feed_server.py serving `directory` on 127.0.0.1, started
/// for this call and stopped when it returns or throws.
func withFeedServer<T>(serving directory: URL, _ body: (URL) async throws -> T) async throws -> T {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Support/feed_server.py").standardizedFileURL
    return try await withLoopbackServer(script: script, arguments: [directory.path], body)
}
