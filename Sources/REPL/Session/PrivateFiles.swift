import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The home's files are the user's alone, whatever the umask: the database holds the tasks and
/// the CalDAV set-up, the history what was typed. As the XDG Base Directory specification asks
/// of a data directory, a home Tidings creates is 0700; its files are created 0600 (SQLite
/// gives `-wal` and `-shm` the database's mode), and files left readable by others by an
/// earlier version are tightened when the home is opened.
enum PrivateFiles {
    /// Creates the home directory (0700) when missing; an existing one that holds Tidings'
    /// database loses group and other access. A directory the user named that is not yet a
    /// Tidings home is left as it is.
    static func prepareHome(_ home: HomeLocation) throws {
        let path = home.directory.path
        if FileManager.default.fileExists(atPath: path) {
            if FileManager.default.fileExists(atPath: home.directory.appendingPathComponent("tidings.sqlite", isDirectory: false).path) {
                tighten(path)
            }
        } else {
            try FileManager.default.createDirectory(
                at: home.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    /// Creates an empty database file private to the user when there is none, so that SQLite
    /// (which keeps an existing file's mode) never creates it by the umask.
    static func createDatabase(at url: URL) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Tightens every file of the home that exists: the database and its `-wal` and `-shm`,
    /// the search index beside it and its own, the history and the installation id.
    static func tightenFiles(of home: HomeLocation) {
        let database = home.databaseURL.path
        let index = database + "-search"
        for path in [database, database + "-wal", database + "-shm", index, index + "-wal", index + "-shm"] {
            tighten(path)
        }
        tighten(home.historyURL.path)
        tighten(home.directory.appendingPathComponent("installation-id", isDirectory: false).path)
    }

    /// Removes group and other access from the file or directory at `path` when it is the
    /// user's own (not a link, a device or another user's file).
    static func tighten(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_uid == geteuid() else { return }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFDIR, status.st_mode & 0o077 != 0 else { return }
        chmod(path, status.st_mode & 0o7700)
    }
}
