import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing a file the way the user means it, for every file the program writes (an export, the
/// history):
/// - a regular file, or a path that does not exist yet, is replaced atomically (a temporary
///   file beside it, synced, renamed over it), and a replaced file keeps its mode and owner;
/// - a symbolic link is written through: its target is replaced, the link stays (a link a
///   dotfiles set-up manages keeps working);
/// - anything else (a device such as `/dev/null`, a named pipe, a terminal) is opened and
///   written to, never replaced by a regular file;
/// - `-` is standard output.
enum FileOutput {
    /// Why a file could not be written, with the path the user named.
    struct Failure: Error, LocalizedError {
        let path: String
        let reason: String
        var errorDescription: String? { "cannot write \(path): \(reason)" }
    }

    /// Whether `path` names standard output: `-` or `/dev/stdout`.
    static func isStandardOutput(_ path: String) -> Bool { path == "-" || path == "/dev/stdout" }

    /// Writes `data` to `path` (see the type's rules). `newFileMode` is the mode of a file that
    /// did not exist (before the umask, as `open` applies it); a replaced file keeps its own.
    static func write(_ data: Data, to path: String, newFileMode: mode_t = 0o666) throws(Failure) {
        if path == "-" {
            try writeAll(data, to: STDOUT_FILENO, path: path)
            return
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
            // Nothing there, or a dangling link: create the file (the one the link names).
            var link = stat()
            let target = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK ? try linkTarget(of: path) : path
            return try replace(data, at: target, existing: nil, newFileMode: newFileMode, named: path)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            // Through any links, the regular file itself is replaced.
            guard let resolved = realpath(path, nil) else {
                throw Failure(path: path, reason: String(cString: strerror(errno)))
            }
            let target = String(cString: resolved)
            free(resolved)
            try replace(data, at: target, existing: status, newFileMode: newFileMode, named: path)
        case S_IFDIR:
            throw Failure(path: path, reason: "it is a directory")
        default:
            // A device, a pipe, a socket or a terminal (`/dev/stdout` among them): written to.
            let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: path)
        }
    }

    /// The path a dangling symbolic link names, relative to the link's directory when relative.
    private static func linkTarget(of path: String) throws(Failure) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("/") { return target }
        return ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
    }

    /// Replaces the regular file at `target` (or creates it) atomically, keeping `existing`'s
    /// mode and owner.
    private static func replace(
        _ data: Data, at target: String, existing: stat?, newFileMode: mode_t, named path: String
    ) throws(Failure) {
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/.\(name).tidings-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var finished = false
        defer {
            close(descriptor)
            if !finished { unlink(temporary) }
        }
        if let existing {
            _ = fchown(descriptor, existing.st_uid, existing.st_gid)  // only root may give a file away
            guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else {
                throw Failure(path: path, reason: String(cString: strerror(errno)))
            }
        } else {
            let mask = umask(0)
            umask(mask)
            guard fchmod(descriptor, newFileMode & ~mask) == 0 else {
                throw Failure(path: path, reason: String(cString: strerror(errno)))
            }
        }
        try writeAll(data, to: descriptor, path: path)
        guard fsync(descriptor) == 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        guard rename(temporary, target) == 0 else {
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
        finished = true
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(Failure) {
        let failure = writeFully(data, to: descriptor)
        if failure != 0 { throw Failure(path: path, reason: String(cString: strerror(failure))) }
    }

    /// Writes all of `data` to `descriptor`, again after an interrupted or partial write;
    /// returns 0, or the `errno` of the write that failed (EPIPE for a reader that left).
    static func writeFully(_ data: Data, to descriptor: Int32) -> Int32 {
        data.withUnsafeBytes { buffer in
            guard var next = buffer.baseAddress else { return 0 }
            var left = buffer.count
            while left > 0 {
                let written = posixWrite(descriptor, next, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                next += written
                left -= written
            }
            return 0
        }
    }
}

/// The C library's `write`, named apart from `FileOutput.write`.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
