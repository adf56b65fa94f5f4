public import Foundation
internal import Networking

/// A CalDAV account's user and password, never stored, printed or written as JSON: its
/// `description` hides the password.
public struct CalDAVCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The account's user name, as the server knows it.
    public var user: String
    /// The account's password; kept in memory only.
    public var password: String

    /// Credentials for one account, as the composition root found them.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `alice:•••`: the user, never the password.
    public var description: String { "\(user):•••" }

    /// The credentials for `url` and `user` (the one set up, or `nil` to take the netrc's
    /// login): the environment's password first, then the `machine` entry for the URL's host
    /// whose `login` is the user (or the first one for the host, without a user), then the
    /// `default` entry. `nil` when neither has a password.
    package static func find(
        for url: URL, user: String?, environment: [String: String], netrc: String?
    ) -> CalDAVCredentials? {
        Netrc.credentials(for: url, user: user, password: environment["TIDINGS_CALDAV_PASSWORD"], netrc: netrc).map {
            CalDAVCredentials(user: $0.user, password: $0.password)
        }
    }

    /// Whether a password may be sent to `url`: over https, or over http only to this machine
    /// (`localhost`, 127.0.0.0/8, `::1`), where no network sees it.
    package static func mayCarryCredentials(_ url: URL) -> Bool { Netrc.mayCarrySecret(to: url) }
}

/// Where the chore sync finds a password, asked each time one is needed (the file behind it
/// may change): a value the composition root builds, so that the Chores library itself reads
/// neither the process environment nor `~/.netrc`.
public struct CalDAVCredentialsProvider: Sendable {
    /// The credentials for a collection and the user set up (`nil`: the provider's own login
    /// for the host); `nil` when there is no password.
    public var credentials: @Sendable (_ collection: URL, _ user: String?) -> CalDAVCredentials?
    /// Whether a password is at hand that names no user (one the set-up cannot use without
    /// being told whose it is).
    public var hasPasswordWithoutUser: Bool

    /// A provider that asks `credentials` for each collection and user.
    public init(
        hasPasswordWithoutUser: Bool = false,
        credentials: @escaping @Sendable (_ collection: URL, _ user: String?) -> CalDAVCredentials?
    ) {
        self.credentials = credentials
        self.hasPasswordWithoutUser = hasPasswordWithoutUser
    }

    /// `password` from `environment` (`TIDINGS_CALDAV_PASSWORD`) for the user set up, else the
    /// netrc file at `netrc`, read again at every request for credentials (see
    /// `CalDAVCredentials.find`).
    public static func environmentAndNetrc(_ environment: [String: String], netrc: URL?) -> Self {
        let password = environment["TIDINGS_CALDAV_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        return CalDAVCredentialsProvider(hasPasswordWithoutUser: password != nil) { collection, user in
            CalDAVCredentials.find(
                for: collection, user: user, environment: password.map { ["TIDINGS_CALDAV_PASSWORD": $0] } ?? [:],
                netrc: netrc.flatMap { try? String(contentsOf: $0, encoding: .utf8) })
        }
    }
}
