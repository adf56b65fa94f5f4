public import Foundation
public import Models

/// The configuration shipped inside the package, used until a remote one has been fetched.
public enum BundledConfig {
    /// Decodes a configuration document and checks the types of the known keys; every key is kept.
    ///
    /// - Throws: `ConfigError.invalidDocument` with the readable path of the first problem.
    public static func decode(_ data: Data, source: String) throws(ConfigError) -> AppConfig {
        try ConfigDocument.decode(data, source: source)
    }

    /// The bundled default configuration.
    ///
    /// - Throws: `ConfigError.invalidDocument` if `document` were broken; a test keeps that from
    ///   ever shipping.
    public static func load() throws(ConfigError) -> AppConfig {
        try decode(Data(document.utf8), source: "bundled default")
    }

    /// The bundled default as JSON. It is compiled into the program, not read from a resource
    /// bundle: an installed `tidings` is one file, and a bundle lookup costs every start.
    public static let document = """
        {
          "minVersion": "1.0.0",
          "refreshIntervalMinutes": 720,
          "maxConcurrentRefreshes": \(RefreshDefaults.maxConcurrentRefreshes),
          "maxConnectionsPerHost": 2,
          "maxRetryAfterMinutes": \(RefreshDefaults.maxRetryAfterMinutes),
          "features": {
            "fullTextSearch": true
          },
          "rollouts": {
            "newRenderer": 25
          }
        }
        """
}
