public import Foundation

/// Header fields with case-insensitive names, as HTTP defines them.
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    private var fields: [String: (name: String, value: String)] = [:]

    /// Creates headers from name–value pairs.
    public init(_ pairs: [String: String] = [:]) {
        for (name, value) in pairs { self[name] = value }
    }

    /// Creates headers from a literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value of a field, whatever the case of `name`.
    public subscript(name: String) -> String? {
        get { fields[name.lowercased()]?.value }
        set { fields[name.lowercased()] = newValue.map { (name, $0) } }
    }

    /// The fields as sent, with their original names.
    public var dictionary: [String: String] {
        Dictionary(uniqueKeysWithValues: fields.values.map { ($0.name, $0.value) })
    }

    /// Iterates over (name, value) pairs.
    public func makeIterator() -> Dictionary<String, String>.Iterator { dictionary.makeIterator() }

    /// Equal when the same names (ignoring case) have the same values.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.mapValues(\.value) == rhs.fields.mapValues(\.value)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(fields.mapValues(\.value)) }
}

/// A request as the transport sends it.
public struct HTTPRequest: Sendable, Hashable {
    public var method: HTTPMethod
    /// The absolute URL.
    public var url: URL
    /// Header fields.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: Data?
    /// How long to wait for the response before failing with `.timedOut`; `nil` uses the
    /// transport's default.
    public var timeout: TimeInterval?

    public init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil,
        timeout: TimeInterval? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Whether repeating the request cannot change anything on the server (RFC 9110 §9.2.2).
    public var isIdempotent: Bool { [.get, .head, .put, .delete, "OPTIONS", "TRACE"].contains(method) }
}

/// A response: status, headers, body, and where it finally came from.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields.
    public var headers: HTTPHeaders
    /// The body (already decompressed).
    public var body: Data
    /// The URL the response came from, after redirects.
    public var url: URL
    /// Where the requested URL now permanently lives, when the server said so with 301 or 308:
    /// callers that store the URL should store this one.
    public var permanentRedirect: URL?

    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL, permanentRedirect: URL? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.permanentRedirect = permanentRedirect
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The `charset` parameter of `Content-Type`, unquoted (`utf-8`), if it has one.
    public var charset: String? {
        guard let contentType = headers["Content-Type"] else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "charset" {
                return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
        }
        return nil
    }
}

/// Sends one request and returns the response, without following redirects: the layer above
/// decides what a 3xx means. Implementations: `CurlTransport` (libcurl, Linux),
/// `URLSessionTransport` (Foundation's `URLSession`, module `URLSessionNetworking`) and
/// the tests' `InMemoryTransport` (target `NetworkingTestSupport`, which fails the test on a
/// request nobody scripted); `makeDefaultTransport(configuration:)` (module
/// `DefaultTransport`) gives the platform's network transport.
public protocol HTTPTransport: Sendable {
    /// Sends `request`; a non-2xx status is a response, not an error.
    ///
    /// - Throws: `NetworkError.transport`, `.timedOut`, `.bodyTooLarge` or `.cancelled`.
    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse
}
