import Foundation

/// Where Tidings keeps its files: `--home`, else `$TIDINGS_HOME`, else
/// `$XDG_DATA_HOME/tidings`, else `~/.local/share/tidings` (`~` is `$HOME`, else the account's
/// home directory).
struct HomeLocation: Equatable {
    let directory: URL
    /// The database file (`--db`, else `tidings.sqlite` in the home).
    let databaseURL: URL
    var historyURL: URL { directory.appendingPathComponent("history", isDirectory: false) }

    /// Resolves the locations from the flags and the environment. A leading `~` is `$HOME`
    /// (else the account's home) in `--home`, `--db` and `$TIDINGS_HOME` alike; a relative
    /// `$XDG_DATA_HOME` is ignored, as the XDG Base Directory specification says.
    init(home: String?, database: String?, environment: [String: String], userHome: String? = nil) {
        let user = userHome ?? environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func expanded(_ path: String) -> String {
            if path == "~" { return user }
            if path.hasPrefix("~/") { return (user as NSString).appendingPathComponent(String(path.dropFirst(2))) }
            return path
        }
        let path: String
        if let home, !home.isEmpty {
            path = expanded(home)
        } else if let home = environment["TIDINGS_HOME"], !home.isEmpty {
            path = expanded(home)
        } else if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            path = (data as NSString).appendingPathComponent("tidings")
        } else {
            path = (user as NSString).appendingPathComponent(".local/share/tidings")
        }
        directory = URL(fileURLWithPath: path, isDirectory: true)
        if let database, !database.isEmpty {
            databaseURL = URL(fileURLWithPath: expanded(database), isDirectory: false)
        } else {
            databaseURL = directory.appendingPathComponent("tidings.sqlite", isDirectory: false)
        }
    }
}
