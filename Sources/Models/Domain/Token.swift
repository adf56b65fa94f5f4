public import Foundation

/// An OAuth-style credential: a bearer access token, the refresh token that renews it, and
/// when it expires; or a `Basic` user and password (`Token.basic`). Decodes `{"access_token": …, "refresh_token": …, "expires_at": …}` with
/// `JSONCoding.decoder()`.
public struct Token: Sendable, Hashable, Codable {
    /// The bearer token sent in `Authorization`.
    public var accessToken: String
    /// The token exchanged for a new access token.
    public var refreshToken: String?
    /// When the access token stops being accepted; `nil` when the server did not say.
    public var expiresAt: Date?
    /// The `Authorization` scheme: `Bearer` for OAuth tokens, `Basic` for a user and password
    /// (the access token is then `base64(user:password)`, as a CalDAV server asks).
    public var scheme: String

    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, scheme: String = "Bearer") {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scheme = scheme
    }

    /// A `Basic` credential for `user` and `password`.
    public static func basic(user: String, password: String) -> Token {
        Token(accessToken: Data("\(user):\(password)".utf8).base64EncodedString(), scheme: "Basic")
    }

    private enum CodingKeys: String, CodingKey { case accessToken, refreshToken, expiresAt, scheme }

    /// Decodes a token; one without a `scheme` is a bearer token.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        scheme = try container.decodeIfPresent(String.self, forKey: .scheme) ?? "Bearer"
    }

    /// Encodes a token; a bearer token is written as before schemes existed, without one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        if scheme != "Bearer" { try container.encode(scheme, forKey: .scheme) }
    }

    /// Whether the token should be refreshed before use at `date`, allowing `leeway` seconds for
    /// clock skew and the request's flight time.
    public func isExpired(at date: Date, leeway: TimeInterval = 30) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(date) <= leeway
    }

    /// The `Authorization` header value.
    public var authorizationHeader: String { "\(scheme) \(accessToken)" }
}
