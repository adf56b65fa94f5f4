public import Foundation
public import Models

/// The configuration shipped inside the package, used until a remote one has been fetched.
public enum BundledConfig {
    /// Decodes a configuration document; every key is kept.
    ///
    /// - Throws: `ConfigError.invalidDocument` with the readable decoding path.
    public static func decode(_ data: Data, source: String) throws(ConfigError) -> AppConfig {
        do {
            return try JSONDecoder().decode(AppConfig.self, from: data)
        } catch let error as DecodingError {
            throw .invalidDocument(source: source, detail: error.readableDescription)
        } catch {
            throw .invalidDocument(source: source, detail: error.localizedDescription)
        }
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
