public import Foundation
internal import Networking

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

extension FeverCredentials {
    /// The environment variable that holds a Fever password (for the account's user).
    public static let passwordVariable = "TIDINGS_FEVER_PASSWORD"

    /// The credentials for `endpoint` and `user` (the one set up, or `nil` to take the netrc's
    /// login): `$TIDINGS_FEVER_PASSWORD` first (with a user), then the netrc's `machine` entry
    /// for the endpoint's host whose `login` is the user (or the first one for the host), then
    /// its `default` entry. `nil` when neither has a password.
    package static func find(
        for endpoint: URL, user: String?, environment: [String: String], netrc: String?
    ) -> FeverCredentials? {
        Netrc.credentials(for: endpoint, user: user, password: environment[passwordVariable], netrc: netrc).map {
            FeverCredentials(user: $0.user, password: $0.password)
        }
    }
}

/// Where a Fever account's password is found, asked each time one is needed (the file behind
/// it may change): a value the composition root builds, so that the Accounts library itself
/// reads neither the process environment nor `~/.netrc`.
public struct FeverCredentialsProvider: Sendable {
    /// The credentials for an endpoint and the user set up (`nil`: the provider's own login for
    /// the host); `nil` when there is no password.
    public var credentials: @Sendable (_ endpoint: URL, _ user: String?) -> FeverCredentials?

    public init(credentials: @escaping @Sendable (_ endpoint: URL, _ user: String?) -> FeverCredentials?) {
        self.credentials = credentials
    }

    /// `$TIDINGS_FEVER_PASSWORD` from `environment` for the user set up, else the netrc file at
    /// `netrc`, read again at every request (see `FeverCredentials.find`).
    public static func environmentAndNetrc(_ environment: [String: String], netrc: URL?) -> Self {
        let password = environment[FeverCredentials.passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
        return FeverCredentialsProvider { endpoint, user in
            FeverCredentials.find(
                for: endpoint, user: user,
                environment: password.map { [FeverCredentials.passwordVariable: $0] } ?? [:],
                netrc: netrc.flatMap { try? String(contentsOf: $0, encoding: .utf8) })
        }
    }
}
