import Config
import Foundation
import Storage

/// Keeps the Config module's cached document in the database (`configCache`), so Config
/// stays free of Storage: it only knows `LocalConfigLoading`.
struct StorageConfigCache: LocalConfigLoading {
    /// The repository of the one cached row.
    let repository: ConfigCacheRepository

    /// The cached row as a `CachedConfig`.
    func fetch() async throws(ConfigError) -> CachedConfig? {
        do {
            guard let row = try await repository.load() else { return nil }
            return CachedConfig(
                body: row.body, etag: row.etag, lastModified: row.lastModified, fetchedAt: row.fetchedAt,
                sourceURL: row.sourceURL.flatMap(URL.init(string:)))
        } catch {
            throw .cacheUnreadable(location: "the database", detail: error.localizedDescription)
        }
    }

    /// The last refresh attempt saved in the database.
    func lastAttempt() async -> ConfigAttempt? {
        guard let row = try? await repository.lastAttempt() else { return nil }
        return ConfigAttempt(at: row.at, result: row.result)
    }

    /// Saves the last refresh attempt; a failure to save it costs only `config show`'s line.
    func recordAttempt(_ attempt: ConfigAttempt) async {
        try? await repository.saveAttempt(at: attempt.at, result: attempt.result)
    }

    /// Replaces the cached row.
    func persist(_ document: CachedConfig) async throws(ConfigError) {
        do {
            try await repository.save(
                CachedDocument(
                    body: document.body, etag: document.etag, lastModified: document.lastModified,
                    fetchedAt: document.fetchedAt, sourceURL: document.sourceURL?.absoluteString))
        } catch {
            throw .cacheWriteFailed(location: "the database", detail: error.localizedDescription)
        }
    }
}
