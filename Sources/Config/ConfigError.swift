public import Foundation

/// Why a configuration could not be loaded.
public enum ConfigError: Error, Sendable, LocalizedError {
    /// The bundled default is missing from the package's resources.
    case missingBundledDefault
    /// A document is not a valid configuration; `detail` names the path and the problem.
    case invalidDocument(source: String, detail: String)

    /// A sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .missingBundledDefault:
            "the bundled default configuration is missing from this build"
        case .invalidDocument(let source, let detail):
            "the \(source) configuration is invalid: \(detail)"
        }
    }
}
