import Foundation

/// What a server said identifies a representation (`ETag`, `Last-Modified`): sent back with
/// the next GET of the same URL, so that an unchanged resource costs a 304 and no body.
///
/// This is the package's HTTP caching, done explicitly (`URLCache` on Linux stores nothing):
/// whoever keeps the representation keeps its validators beside it (a feed in its row, the
/// configuration in its cache) and asks with `APIClient.conditionalGet(_:validators:)`.
public struct HTTPValidators: Sendable, Hashable {
    /// The entity tag, sent as `If-None-Match`.
    public var etag: String?
    /// The modification date as the server wrote it, sent as `If-Modified-Since`.
    public var lastModified: String?

    /// Creates validators; none means an unconditional GET.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The validators a response carries.
    public init(of response: HTTPResponse) {
        self.init(etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"])
    }

    /// Whether there is nothing to send.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// What a conditional GET came to.
public enum ConditionalResponse: Sendable, Hashable {
    /// The server confirmed the representation the validators describe (304).
    case notModified(HTTPResponse)
    /// Any other answer, whatever its status, with the validators it carries.
    case response(HTTPResponse, HTTPValidators)
}

extension APIClient {
    /// Sends `request` as a conditional GET: `If-None-Match` and `If-Modified-Since` from
    /// `validators` (replacing any the request had), redirects followed and transient failures
    /// retried as `send(_:)` does.
    public func conditionalGet(_ request: HTTPRequest, validators: HTTPValidators) async throws(NetworkError)
        -> ConditionalResponse
    {
        var request = request
        request.method = .get
        request.headers["If-None-Match"] = validators.etag
        request.headers["If-Modified-Since"] = validators.lastModified
        let response = try await send(request)
        if response.status == 304 { return .notModified(response) }
        return .response(response, HTTPValidators(of: response))
    }
}
