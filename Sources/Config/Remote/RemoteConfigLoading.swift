public import Foundation
public import Models
public import Networking

/// What a conditional GET of the configuration produced.
public enum RemoteConfigResponse: Sendable, Hashable {
    /// A new document (status 200), already decoded and checked, with its body and validators.
    case modified(AppConfig, CachedConfig)
    /// The server confirmed the copy whose validators were sent (status 304).
    case notModified
}

/// The validators of the copy in hand, sent so the server can answer 304: Networking's
/// `HTTPValidators`, the one conditional-GET vocabulary of the package.
public typealias ConfigValidators = HTTPValidators

/// Fetches the remote configuration document.
public protocol RemoteConfigLoading: Sendable {
    /// GETs `url`, conditionally when `validators` has any.
    ///
    /// - Throws: `ConfigError` with one clear reason: unreachable, timed out, a status other
    ///   than 200/304, not JSON, too large, or an invalid document (with the path).
    func fetch(from url: URL, validators: ConfigValidators) async throws(ConfigError) -> RemoteConfigResponse
}
