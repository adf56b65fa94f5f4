import Foundation

/// Runs `body` against Tests/Support/download_server.py (a file server with byte ranges and
/// misbehaviours chosen by path) serving `directory` on 127.0.0.1, started for this call and
/// stopped when it returns or throws. Shared by the test targets through symbolic links in their
/// `Support` folders.
func withDownloadServer<T>(serving directory: URL, _ body: (URL) async throws -> T) async throws -> T {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Support/download_server.py").standardizedFileURL
    return try await withLoopbackServer(script: script, arguments: [directory.path], body)
}

/// A request as the download server saw it.
struct SeenDownloadRequest: Decodable, Equatable {
    var method: String
    var path: String
    /// Its `Range` header.
    var range: String?
    /// Its `If-Range` header.
    var ifRange: String?

    enum CodingKeys: String, CodingKey {
        case method, path, range
        case ifRange = "if_range"
    }

    /// The requests the server serving `directory` has seen, in order.
    static func all(in directory: URL) throws -> [SeenDownloadRequest] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent(".requests"), encoding: .utf8)
        else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Self.self, from: Data($0.utf8)) }
    }
}
