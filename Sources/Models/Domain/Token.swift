public import Foundation

/// An OAuth-style credential: a bearer access token, the refresh token that renews it, and
/// when it expires. Decodes `{"access_token": …, "refresh_token": …, "expires_at": …}` with
/// `JSONCoding.decoder()`.
public struct Token: Sendable, Hashable, Codable {
    /// The bearer token sent in `Authorization`.
    public var accessToken: String
    /// The token exchanged for a new access token.
    public var refreshToken: String?
    /// When the access token stops being accepted; `nil` when the server did not say.
    public var expiresAt: Date?

    /// Creates a token.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    /// Whether the token should be refreshed before use at `date`, allowing `leeway` seconds for
    /// clock skew and the request's flight time.
    public func isExpired(at date: Date, leeway: TimeInterval = 30) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(date) <= leeway
    }

    /// The `Authorization` header value.
    public var authorizationHeader: String { "Bearer \(accessToken)" }
}
