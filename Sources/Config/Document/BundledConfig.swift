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
    /// - Throws: `ConfigError` when the resource is missing or broken; a test keeps that from
    ///   ever shipping.
    public static func load() throws(ConfigError) -> AppConfig {
        guard let url = Bundle.module.url(forResource: "default-config", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { throw .missingBundledDefault }
        return try decode(data, source: "bundled default")
    }
}
