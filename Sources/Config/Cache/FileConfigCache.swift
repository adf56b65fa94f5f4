public import Foundation
import Models
import Networking

/// Keeps the cached configuration in one JSON file (`config-cache.json` in the home
/// directory by default).
///
/// The file holds the document itself, readable as it came, next to its validators and fetch
/// time. Writes go to a temporary file in the same directory that is then renamed over the
/// old one, so a crash leaves either the old copy or the new one, never half of one. A file
/// that cannot be read is moved aside to `<name>.corrupt` (so it is reported once, kept for
/// inspection, and rewritten by the next successful refresh) and reported as
/// `cacheUnreadable`.
public struct FileConfigCache: LocalConfigLoading {
    /// The cache file.
    public let fileURL: URL

    /// Creates a cache kept in `fileURL`.
    public init(fileURL: URL) { self.fileURL = fileURL }

    /// Creates a cache kept in `config-cache.json` in the `home` directory.
    public init(home: URL) { self.init(fileURL: home.appendingPathComponent("config-cache.json", isDirectory: false)) }

    /// What the file holds.
    private struct Envelope: Codable {
        var document: JSONValue
        var etag: String?
        var lastModified: String?
        /// Seconds since 1970, exact (an RFC 3339 string would drop the fraction).
        var fetchedAt: Double
        var sourceURL: URL?
    }

    /// The cached document; `nil` when there is no file.
    ///
    /// - Throws: `ConfigError.cacheUnreadable` (after moving the file aside) when the file
    ///   exists but is not a cache this type wrote.
    public func fetch() async throws(ConfigError) -> CachedConfig? { try load() }

    /// The cached document, read synchronously (for start-up, before any task runs).
    ///
    /// - Throws: `ConfigError.cacheUnreadable`, as `fetch()`.
    public func load() throws(ConfigError) -> CachedConfig? {
        let data: Data
        do {
            data = try LocalFile.read(fileURL)
        } catch {
            guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
            throw .cacheUnreadable(location: fileURL.path, detail: error.reason)
        }
        do {
            let envelope = try JSONDecoder().decode(Envelope.self, from: data)
            return CachedConfig(
                body: Data(envelope.document.description.utf8), etag: envelope.etag,
                lastModified: envelope.lastModified, fetchedAt: Date(timeIntervalSince1970: envelope.fetchedAt),
                sourceURL: envelope.sourceURL)
        } catch {
            let detail = (error as? DecodingError)?.readableDescription ?? error.localizedDescription
            quarantine()
            throw .cacheUnreadable(location: fileURL.path, detail: detail)
        }
    }

    /// Replaces the file atomically.
    ///
    /// - Throws: `ConfigError.cacheWriteFailed` when the body is not JSON or the file cannot
    ///   be written.
    public func persist(_ document: CachedConfig) async throws(ConfigError) { try save(document) }

    /// Replaces the file atomically, synchronously.
    ///
    /// - Throws: `ConfigError.cacheWriteFailed`, as `persist(_:)`.
    public func save(_ document: CachedConfig) throws(ConfigError) {
        do {
            let value = try JSONDecoder().decode(JSONValue.self, from: document.body)
            let envelope = Envelope(
                document: value, etag: document.etag, lastModified: document.lastModified,
                fetchedAt: document.fetchedAt.timeIntervalSince1970, sourceURL: document.sourceURL)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try AtomicFile.write(try encoder.encode(envelope), to: fileURL)
        } catch {
            throw .cacheWriteFailed(location: fileURL.path, detail: error.localizedDescription)
        }
    }

    /// Where the last refresh attempt is kept: beside the cache, `<name>.attempt.json`.
    var attemptURL: URL {
        fileURL.deletingPathExtension().appendingPathExtension("attempt.json")
    }

    /// The last refresh attempt recorded; `nil` when none was or the file cannot be read.
    public func lastAttempt() async -> ConfigAttempt? {
        guard let data = try? LocalFile.read(attemptURL) else { return nil }
        return try? JSONDecoder().decode(ConfigAttempt.self, from: data)
    }

    /// Records the last refresh attempt (atomically; a failure to write it is ignored).
    public func recordAttempt(_ attempt: ConfigAttempt) async {
        guard let data = try? JSONEncoder().encode(attempt) else { return }
        try? AtomicFile.write(data, to: attemptURL)
    }

    /// Moves an unreadable file out of the way, replacing an older `.corrupt` copy.
    private func quarantine() {
        let aside = fileURL.appendingPathExtension("corrupt")
        try? FileManager.default.removeItem(at: aside)
        if (try? FileManager.default.moveItem(at: fileURL, to: aside)) == nil {
            try? FileManager.default.removeItem(at: fileURL)
        }
    }
}

/// Whole-file writes that never leave half a file behind.
enum AtomicFile {
    /// Writes `data` to a temporary file next to `url`, flushes it, and renames it over `url`
    /// (creating the directory when needed). A symbolic link is written through (its target is
    /// replaced, the link stays); a replaced file keeps its mode, and a new one is private to
    /// the user (0600): the files written here (a cached configuration, the installation id)
    /// are the user's own data.
    static func write(_ data: Data, to url: URL) throws {
        let url = url.resolvingSymlinksInPath()
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp", isDirectory: false)
        let existingMode = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int
        do {
            guard
                FileManager.default.createFile(
                    atPath: temporary.path, contents: nil, attributes: [.posixPermissions: existingMode ?? 0o600])
            else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            if rename(temporary.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
