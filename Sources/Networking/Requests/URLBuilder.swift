public import Foundation

/// Builds request URLs from a base URL, a path and query items; it only composes, it never
/// reads a URL apart (that is `URLComponents`' job at the call sites that need it).
///
/// Paths are appended segment by segment below the base URL's own path, so a base of
/// `https://api.example.com/v1/` and a path of `feeds/7` give `…/v1/feeds/7` whether or not
/// either side has its slash. Query values are percent-encoded, including `+` and `&`, which
/// `URLComponents` leaves alone. An absolute `http(s)` path replaces the base.
public struct URLBuilder: Sendable, Hashable {
    /// The URL every path is resolved below.
    public let baseURL: URL

    /// Creates a builder for a base URL.
    public init(baseURL: URL) { self.baseURL = baseURL }

    /// The full URL for `path` and `query`.
    ///
    /// - Throws: `NetworkError.invalidURL` when the pieces do not form a URL.
    public func url(path: String, query: [URLQueryItem] = []) throws(NetworkError) -> URL {
        let lowered = path.lowercased()
        let absolute = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        guard
            var components = URLComponents(
                url: absolute ? URL(string: path) ?? baseURL : baseURL, resolvingAgainstBaseURL: true),
            !absolute || URL(string: path) != nil
        else { throw .invalidURL(path) }

        if !absolute {
            let basePath = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true)
            let extra = path.split(separator: "/", omittingEmptySubsequences: true).map {
                String($0).addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? String($0)
            }
            let segments = basePath.map(String.init) + extra
            components.percentEncodedPath =
                "/" + segments.joined(separator: "/")
                + (path.hasSuffix("/") && !extra.isEmpty ? "/" : "")
        }
        if !query.isEmpty {
            let encoded = query.map { item in
                Self.encode(item.name) + (item.value.map { "=" + Self.encode($0) } ?? "")
            }
            let existing = components.percentEncodedQuery.map { [$0] } ?? []
            components.percentEncodedQuery = (existing + encoded).joined(separator: "&")
        }
        guard let url = components.url else { throw .invalidURL(path) }
        return url
    }

    /// Characters left as they are inside one path segment.
    private static let pathAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove("/")
        return set
    }()

    /// Characters left as they are in a query name or value (RFC 3986 unreserved).
    private static let queryAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }
}
