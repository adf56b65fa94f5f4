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
        if let password = environment["TIDINGS_CALDAV_PASSWORD"], !password.isEmpty, let user, !user.isEmpty {
            return CalDAVCredentials(user: user, password: password)
        }
        guard let netrc, let host = url.host?.lowercased() else { return nil }
        let entries = Netrc(parsing: netrc).entries
        let candidates =
            entries.filter { $0.machine?.lowercased() == host } + entries.filter { $0.machine == nil }
        for entry in candidates {
            guard let password = entry.password else { continue }
            if let user {
                guard entry.login == nil || entry.login == user else { continue }
                return CalDAVCredentials(user: user, password: password)
            }
            if let login = entry.login { return CalDAVCredentials(user: login, password: password) }
        }
        return nil
    }

    /// Whether a password may be sent to `url`: over https, or over http only to this machine
    /// (`localhost`, 127.0.0.0/8, `::1`), where no network sees it.
    package static func mayCarryCredentials(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return url.host != nil
        case "http": return url.host.map(ProxyRoute.isLoopback) ?? false
        default: return false
        }
    }
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

/// A `.netrc` file as ftp, curl and git read it: `machine NAME`, `default`, `login`,
/// `password`, `account`, and `macdef` (its lines, up to a blank one, are skipped). Tokens are
/// separated by white space; a token in double quotes may hold spaces and `\"`.
package struct Netrc: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// `nil` for the `default` entry.
        package var machine: String?
        package var login: String?
        package var password: String?
    }

    package var entries: [Entry] = []

    package init(parsing text: String) {
        var tokens = Self.tokens(text)
        var current: Entry?
        while let token = tokens.next() {
            switch token {
            case "machine":
                if let current { entries.append(current) }
                current = Entry(machine: tokens.next())
            case "default":
                if let current { entries.append(current) }
                current = Entry(machine: nil)
            case "login": current?.login = tokens.next()
            case "password", "passwd": current?.password = tokens.next()
            case "account": _ = tokens.next()
            case "macdef":
                _ = tokens.next()
                tokens.skipMacro()
            default: break
            }
        }
        if let current { entries.append(current) }
    }

    /// Splits into tokens, keeping track of lines for `macdef`.
    private static func tokens(_ text: String) -> Tokens { Tokens(scalars: Array(text.unicodeScalars)) }

    fileprivate struct Tokens {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func next() -> String? {
            while index < scalars.count {
                if scalars[index].properties.isWhitespace {
                    index += 1
                } else if scalars[index] == "#", index == 0 || scalars[index - 1] == "\n" {
                    // A comment: a line that starts with `#`.
                    while index < scalars.count, scalars[index] != "\n" { index += 1 }
                } else {
                    break
                }
            }
            guard index < scalars.count else { return nil }
            var token = String.UnicodeScalarView()
            if scalars[index] == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                    token.append(scalars[index])
                    index += 1
                }
                index += 1
            } else {
                while index < scalars.count, !scalars[index].properties.isWhitespace {
                    token.append(scalars[index])
                    index += 1
                }
            }
            return String(token)
        }

        /// Skips a macro's body: everything up to the next blank line.
        mutating func skipMacro() {
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
            while index < scalars.count {
                index += 1
                if index >= scalars.count || scalars[index] == "\n" { return }
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            }
        }
    }
}
