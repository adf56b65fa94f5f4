import Foundation

/// Where Tidings keeps its files: `--home`, else `$TIDINGS_HOME`, else
/// `$XDG_DATA_HOME/tidings`, else `~/.local/share/tidings` (`~` is `$HOME`, else the account's
/// home directory).
struct HomeLocation: Equatable {
    /// The home directory.
    let directory: URL
    /// The database file (`--db`, else `tidings.sqlite` in the home).
    let databaseURL: URL
    /// The history file.
    var historyURL: URL { directory.appendingPathComponent("history") }

    /// Resolves the locations from the flags and the environment.
    init(home: String?, database: String?, environment: [String: String], userHome: String? = nil) {
        let path: String
        if let home, !home.isEmpty {
            path = home
        } else if let home = environment["TIDINGS_HOME"], !home.isEmpty {
            path = home
        } else if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            path = (data as NSString).appendingPathComponent("tidings")
        } else {
            let user = userHome ?? environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            path = (user as NSString).appendingPathComponent(".local/share/tidings")
        }
        directory = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true)
        if let database, !database.isEmpty {
            databaseURL = URL(fileURLWithPath: (database as NSString).expandingTildeInPath)
        } else {
            databaseURL = directory.appendingPathComponent("tidings.sqlite")
        }
    }
}
