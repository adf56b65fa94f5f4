public import Foundation
public import Models

/// The config URL an operator chose: `--config-url`, else `$TIDINGS_CONFIG_URL`, else the
/// bundled default's `configURL` when it names one (the shipped default names none: a new
/// user's program has no remote source and runs on its bundled values).
public struct ConfigURLSelection: Sendable, Hashable {
    /// Where the choice came from.
    public enum Origin: String, Sendable, Hashable {
        /// The `--config-url` flag.
        case flag = "--config-url"
        /// The `TIDINGS_CONFIG_URL` environment variable.
        case environment = "TIDINGS_CONFIG_URL"
        /// The bundled default's `configURL`.
        case bundled = "the bundled default"
    }

    /// The URL to fetch the configuration from.
    public var url: URL
    /// Where it came from.
    public var origin: Origin

    public init(url: URL, origin: Origin) {
        self.url = url
        self.origin = origin
    }

    /// Applies the precedence flag > environment > bundled; an empty flag or variable counts
    /// as unset. Returns `nil` when none of them names a URL: there is no remote source.
    ///
    /// - Throws: `ConfigError.invalidConfigURL` when the chosen text is not an http, https or
    ///   file URL, or `.invalidDocument` when the bundled default's `configURL` is not a string.
    public static func choose(
        flag: String?, environment: [String: String], bundled: AppConfig
    ) throws(ConfigError) -> ConfigURLSelection? {
        if let flag, !flag.isEmpty { return try parse(flag, origin: .flag) }
        if let variable = environment["TIDINGS_CONFIG_URL"], !variable.isEmpty {
            return try parse(variable, origin: .environment)
        }
        guard let value = bundled["configURL"], value != .null else { return nil }
        guard let text = value.stringValue else {
            throw .invalidDocument(source: "bundled default", detail: "configURL: expected a URL string")
        }
        return try parse(text, origin: .bundled)
    }

    private static func parse(_ text: String, origin: Origin) throws(ConfigError) -> ConfigURLSelection {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            ["http", "https", "file"].contains(scheme), scheme == "file" || url.host != nil
        else { throw .invalidConfigURL(text, origin: origin.rawValue) }
        return ConfigURLSelection(url: url, origin: origin)
    }
}
