import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Notices that the database file a session opened is no longer at its path (deleted, or
/// replaced by another file): SQLite keeps writing into the open, unlinked file, so every
/// change made after that would be lost at exit while each command said it succeeded.
struct DatabaseFileWatch: Sendable {
    let path: String
    private let device: UInt64
    private let inode: UInt64

    /// Records the identity of the file at `path` now (right after the database was opened);
    /// `nil` for a database with no file (`:memory:`) or one that cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.path = path
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// Why the session's database is gone, or `nil` while it is still the file at its path.
    func problem() -> String? {
        var status = stat()
        if stat(path, &status) != 0 {
            guard errno == ENOENT else { return nil }
            return "the database file \(path) was deleted while this session was open, so nothing done now "
                + "could be kept; quit and start tidings again (it creates a new database)"
        }
        guard UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else {
            return "the database file \(path) was replaced by another file while this session was open; "
                + "quit and start tidings again to use the file now at that path"
        }
        return nil
    }
}
