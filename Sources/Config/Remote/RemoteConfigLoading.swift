public import Foundation
public import Models

/// What a conditional GET of the configuration produced.
public enum RemoteConfigResponse: Sendable, Hashable {
    /// A new document (status 200), already decoded and checked, with its body and validators.
    case modified(AppConfig, CachedConfig)
    /// The server confirmed the copy whose validators were sent (status 304).
    case notModified
}

/// The validators of the copy in hand, sent so the server can answer 304.
public struct ConfigValidators: Sendable, Hashable {
    /// Sent as `If-None-Match`.
    public var etag: String?
    /// Sent as `If-Modified-Since`.
    public var lastModified: String?

    /// Creates validators; both `nil` makes the GET unconditional.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// Fetches the remote configuration document.
public protocol RemoteConfigLoading: Sendable {
    /// GETs `url`, conditionally when `validators` has any.
    ///
    /// - Throws: `ConfigError` with one clear reason: unreachable, timed out, a status other
    ///   than 200/304, not JSON, too large, or an invalid document (with the path).
    func fetch(from url: URL, validators: ConfigValidators) async throws(ConfigError) -> RemoteConfigResponse
}
