public import Foundation

/// A `.netrc` file as ftp, curl and git read it: `machine NAME`, `default`, `login`,
/// `password`, `account`, and `macdef` (its lines, up to a blank one, are skipped). Tokens are
/// separated by white space; a token in double quotes may hold spaces and `\"`.
package struct Netrc: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// `nil` for the `default` entry.
        package var machine: String?
        package var login: String?
        package var password: String?

        package init(machine: String?, login: String? = nil, password: String? = nil) {
            self.machine = machine
            self.login = login
            self.password = password
        }
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

    /// The user and password for `url` and `user` (`nil`: the netrc's own login for the
    /// host): `password` (the environment's, for a user given) first, then the entry of
    /// `netrc`'s text as `login(for:user:)` picks it. `nil` when neither has one.
    package static func credentials(for url: URL, user: String?, password: String?, netrc: String?)
        -> (user: String, password: String)?
    {
        if let password, !password.isEmpty, let user, !user.isEmpty { return (user, password) }
        guard let netrc, let host = url.host else { return nil }
        return Netrc(parsing: netrc).login(for: host, user: user)
    }

    /// Whether a password, or a key standing for one, may be sent to `url`: over https, or over
    /// plain http only to this machine (`localhost`, 127.0.0.0/8, `::1`), where no network sees it.
    package static func mayCarrySecret(to url: URL) -> Bool {
        guard let host = url.host, !host.isEmpty else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return ProxyRoute.isLoopback(host)
        default: return false
        }
    }

    /// The login and password for `host` and `user` (`nil`: the entry's own login): the
    /// `machine` entry for the host whose `login` is the user (or the first one for the host,
    /// without a user), then the `default` entry. `nil` when none has a password.
    package func login(for host: String, user: String?) -> (user: String, password: String)? {
        let host = host.lowercased()
        let candidates = entries.filter { $0.machine?.lowercased() == host } + entries.filter { $0.machine == nil }
        for entry in candidates {
            guard let password = entry.password else { continue }
            if let user {
                guard entry.login == nil || entry.login == user else { continue }
                return (user, password)
            }
            if let login = entry.login { return (login, password) }
        }
        return nil
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
