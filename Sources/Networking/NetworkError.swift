public import Foundation

/// Everything that can go wrong between building a request and decoding its response.
public enum NetworkError: Error, Sendable, LocalizedError {
    /// The pieces of a request did not form a URL.
    case invalidURL(String)

    /// A sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .invalidURL(let text): "\"\(text)\" is not a valid URL"
        }
    }
}
