import Foundation
import Models

/// An API client that signs every request with a bearer token from an `Authenticator` and
/// retries once after a rejected token.
///
/// A response is a rejected token when it is a 401, or when its JSON body says
/// `{"errors":["invalid_token"]}`. The retry uses the token another caller already refreshed
/// if there is one, else a forced refresh; a second rejection surfaces as `.status`.
public struct AuthenticatedClient: Sendable {
    private let client: APIClient
    private let authenticator: Authenticator

    public init(client: APIClient, authenticator: Authenticator) {
        self.client = client
        self.authenticator = authenticator
    }

    /// Sends a signed request and decodes a 2xx body as `Response`.
    public func execute<Response: Decodable>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response {
        let token = try await authenticator.validToken()
        do {
            return try await client.execute(endpoint.authorized(with: token))
        } catch {
            guard case .status(let response) = error, Self.isRejectedToken(response) else { throw error }
            let replacement = try await authenticator.token(replacing: token)
            return try await client.execute(endpoint.authorized(with: replacement))
        }
    }

    /// Sends `request` signed with the token in force and returns the response, whatever its
    /// status (WebDAV answers 207, 412 and 507 that callers read). A 401 gets the token
    /// replaced (another caller's refresh, else a forced one) and the request sent once more;
    /// a second 401 is returned.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        let token = try await authenticator.validToken()
        var signed = request
        signed.headers["Authorization"] = token.authorizationHeader
        let response = try await client.send(signed)
        guard response.status == 401 else { return response }
        let replacement = try await authenticator.token(replacing: token)
        signed.headers["Authorization"] = replacement.authorizationHeader
        return try await client.send(signed)
    }

    /// Whether a response rejects the token it was sent with.
    static func isRejectedToken(_ response: HTTPResponse) -> Bool {
        if response.status == 401 { return true }
        struct Errors: Decodable { let errors: [String] }
        let errors = try? JSONDecoder().decode(Errors.self, from: response.body)
        return errors?.errors.contains("invalid_token") ?? false
    }
}
