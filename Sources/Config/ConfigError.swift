public import Foundation

/// Why a configuration could not be loaded, fetched, stored or chosen.
///
/// Each case reads as one sentence a user or an operator can act on; the provider keeps the
/// last good configuration whenever one of these happens.
public enum ConfigError: Error, Sendable, Hashable, LocalizedError {
    /// A document is not a valid configuration; `detail` names the path and the problem.
    case invalidDocument(source: String, detail: String)
    /// The server could not be reached; `reason` is the system's explanation.
    case unreachable(url: URL, reason: String)
    /// The server did not answer within `seconds`.
    case timedOut(url: URL, seconds: Double)
    /// The server answered with a status other than 200 or 304.
    case httpStatus(url: URL, status: Int)
    /// The server sent a web page (or other non-JSON text) instead of the configuration.
    case notJSON(url: URL, contentType: String)
    /// The body is larger than `limit` bytes.
    case bodyTooLarge(url: URL, limit: Int)
    /// The request was cancelled before it finished.
    case cancelled
    /// The cached copy at `location` cannot be read; `detail` says why.
    case cacheUnreadable(location: String, detail: String)
    /// The cached copy at `location` could not be written; `detail` says why.
    case cacheWriteFailed(location: String, detail: String)
    /// The installation id at `location` could not be read or created.
    case installationIDUnavailable(location: String, detail: String)
    /// A config URL (from `origin`: the flag, the environment or the bundled default) is not
    /// an http, https or file URL.
    case invalidConfigURL(String, origin: String)
    /// No config URL is set (`--config-url`, `TIDINGS_CONFIG_URL`): there is nothing to fetch,
    /// and the bundled values (or a copy cached from an earlier source) are in force.
    case noRemoteSource

    /// A sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .invalidDocument(let source, let detail):
            "the \(source) configuration is invalid: \(detail)"
        case .unreachable(let url, let reason):
            "cannot reach the config server at \(url.absoluteString): \(reason)"
        case .timedOut(let url, let seconds):
            "the config server at \(url.absoluteString) did not answer within \(Self.format(seconds)) seconds"
        case .httpStatus(let url, let status):
            "the config server answered HTTP \(status) for \(url.absoluteString)"
                + (status == 404 ? " (check the config URL)" : "")
        case .notJSON(let url, let contentType):
            "the config server sent \(contentType) instead of a JSON configuration from \(url.absoluteString) "
                + "(check the config URL)"
        case .bodyTooLarge(let url, let limit):
            "the configuration at \(url.absoluteString) is larger than the \(limit / 1000) kB limit"
        case .cancelled:
            "the configuration refresh was cancelled"
        case .cacheUnreadable(let location, let detail):
            "the cached configuration at \(location) cannot be read (\(detail)); using the bundled default"
        case .cacheWriteFailed(let location, let detail):
            "cannot save the configuration to \(location): \(detail)"
        case .installationIDUnavailable(let location, let detail):
            "cannot read or create the installation id at \(location): \(detail)"
        case .invalidConfigURL(let text, let origin):
            "the config URL \"\(text)\" from \(origin) is not an http, https or file URL"
        case .noRemoteSource:
            "no remote configuration source is set (--config-url or TIDINGS_CONFIG_URL); the bundled values are in force"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }
}
