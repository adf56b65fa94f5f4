public import Foundation

/// Why a document could not be read as a feed.
public enum FeedParseError: Error, Sendable, Hashable, LocalizedError {
    /// The document is something else (an HTML page, an empty file, binary data).
    case notAFeed(String)
    /// The document is a feed but too damaged to recover anything from.
    case malformed(String)

    /// One line for the user.
    public var errorDescription: String? {
        switch self {
        case .notAFeed(let reason): "not a feed: \(reason)"
        case .malformed(let reason): "malformed feed: \(reason)"
        }
    }
}
