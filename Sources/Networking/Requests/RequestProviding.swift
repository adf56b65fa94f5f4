public import Foundation
public import Models

/// Anything that can become an `HTTPRequest` below a base URL.
public protocol RequestProviding: Sendable {
    /// The request, with its URL built by `URLBuilder`.
    func request(baseURL: URL) throws(NetworkError) -> HTTPRequest
}

extension Endpoint: RequestProviding {
    /// The request for this endpoint below `baseURL`.
    public func request(baseURL: URL) throws(NetworkError) -> HTTPRequest {
        let url = try URLBuilder(baseURL: baseURL).url(path: path, query: query)
        return HTTPRequest(method: method, url: url, headers: HTTPHeaders(headers), body: body)
    }

    /// The same endpoint with a bearer token in `Authorization`.
    public func authorized(with token: String) -> Endpoint {
        authorized(with: Token(accessToken: token))
    }

    /// The endpoint with `token` in `Authorization`, in the token's scheme.
    public func authorized(with token: Token) -> Endpoint {
        var copy = self
        copy.headers["Authorization"] = token.authorizationHeader
        return copy
    }
}
