import Foundation

/// A Fever account's user and password, kept in memory only: `description` hides the
/// password, and what goes to the server is the API key derived from both.
public struct FeverCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The account's user name (an email address on most servers).
    public var user: String
    /// The account's password.
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `alice:•••`: the user, never the password.
    public var description: String { "\(user):•••" }

    /// The Fever API key: the MD5 of `user:password`, as 32 lowercase hex digits (the
    /// protocol's definition; FreshRSS, Miniflux and Coldsweat all derive it so).
    public var apiKey: String { MD5.hex(of: Array("\(user):\(password)".utf8)) }
}
