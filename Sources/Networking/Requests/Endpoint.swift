public import Foundation

/// An HTTP method.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
    /// The method name as sent on the wire.
    public let rawValue: String
    /// Creates a method from its name.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    /// Creates a method from a literal (`"GET"`).
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// Reads a resource.
    public static let get: HTTPMethod = "GET"
    /// Creates a resource or submits data.
    public static let post: HTTPMethod = "POST"
    /// Replaces a resource.
    public static let put: HTTPMethod = "PUT"
    /// Changes part of a resource.
    public static let patch: HTTPMethod = "PATCH"
    /// Removes a resource.
    public static let delete: HTTPMethod = "DELETE"
    /// Reads a resource's headers only.
    public static let head: HTTPMethod = "HEAD"
}

/// A request description that carries the type its response decodes to, so a call site reads
/// `try await client.execute(Endpoint<Account>.get("me"))`.
public struct Endpoint<Response>: Sendable {
    public var method: HTTPMethod
    /// The path, relative to the client's base URL (`v1/feeds`), or an absolute URL string.
    public var path: String
    /// Query items, percent-encoded by `URLBuilder`.
    public var query: [URLQueryItem]
    /// Extra request headers.
    public var headers: [String: String]
    public var body: Data?

    public init(
        method: HTTPMethod, path: String, query: [URLQueryItem] = [], headers: [String: String] = [:],
        body: Data? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A GET of `path` with optional query items.
    public static func get(_ path: String, query: [URLQueryItem] = []) -> Endpoint {
        Endpoint(method: .get, path: path, query: query)
    }
}
