public import Foundation

/// A configuration document as it was fetched, with the validators for the next conditional
/// GET and the time it was fetched.
public struct CachedConfig: Sendable, Hashable {
    /// The body as the server sent it (a JSON object).
    public var body: Data
    /// The response's `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// The response's `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// When the server last sent or confirmed (304) this document.
    public var fetchedAt: Date
    /// The config URL it was fetched from (`nil` when not known): its validators are sent to
    /// that URL only, so a server at another URL never answers 304 for a document it did not
    /// send.
    public var sourceURL: URL?

    public init(
        body: Data, etag: String? = nil, lastModified: String? = nil, fetchedAt: Date, sourceURL: URL? = nil
    ) {
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.sourceURL = sourceURL
    }
}

/// Where the last activated configuration is kept between runs.
///
/// `FileConfigCache` keeps it in a file in the home directory; the REPL can wire one over its
/// database instead. Implementations store the document as given and check nothing about its
/// content: `ConfigProvider` decodes it and falls back to the bundled default when it is bad.
public protocol LocalConfigLoading: Sendable {
    /// The cached document, or `nil` when nothing has been cached yet.
    ///
    /// - Throws: `ConfigError.cacheUnreadable` when a copy exists but cannot be read.
    func fetch() async throws(ConfigError) -> CachedConfig?

    /// Replaces the cached document, completely or not at all.
    ///
    /// - Throws: `ConfigError.cacheWriteFailed`.
    func persist(_ document: CachedConfig) async throws(ConfigError)

    /// The last refresh attempt recorded, failed ones included; `nil` when none was (or the
    /// store keeps none).
    func lastAttempt() async -> ConfigAttempt?

    /// Records a refresh attempt, replacing the previous one. Best effort: a store that cannot
    /// write it loses only what `config show` says about the last refresh.
    func recordAttempt(_ attempt: ConfigAttempt) async
}

extension LocalConfigLoading {
    /// Keeps no attempts.
    public func lastAttempt() async -> ConfigAttempt? { nil }

    /// Keeps no attempts.
    public func recordAttempt(_ attempt: ConfigAttempt) async {}
}

/// One refresh attempt as it is shown later: when it ended and what came of it, in words
/// (`updated: minVersion`, `not modified`, `failed: …`).
public struct ConfigAttempt: Sendable, Hashable, Codable {
    /// When it ended.
    public var at: Date
    /// What came of it.
    public var result: String

    public init(at: Date, result: String) {
        self.at = at
        self.result = result
    }
}
