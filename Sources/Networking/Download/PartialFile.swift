import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `.part` file of a download, open for writing: its length is where the transfer goes on.
/// Opened without following a symbolic link, and only when it is a regular file. Each write goes
/// straight to the file (no buffer in this process), so whatever arrived before a Ctrl-C or a
/// crash is in the file and can be resumed.
final class PartialFile: Sendable {
    /// The attribute that names the address the file is downloaded from.
    static let originAttribute = "user.xdg.origin.url"
    /// The attribute that keeps the validator (`ETag` or `Last-Modified`) of the response the
    /// file started from, sent as `If-Range` when it is resumed.
    static let validatorAttribute = "user.tidings.validator"

    let url: URL
    private let descriptor: Int32
    /// The file's length: where the next byte goes.
    private let end: Mutex<Int64>

    /// Opens (creating it when missing) the partial file at `url`.
    init(opening url: URL) throws(NetworkError) {
        self.url = url
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.failure(url, errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .file(path: url.path, reason: "it is not a regular file")
        }
        self.descriptor = descriptor
        end = Mutex(Int64(status.st_size))
    }

    deinit { close(descriptor) }

    /// The bytes the file holds.
    var length: Int64 { end.withLock { $0 } }

    /// The address the file is downloaded from, as recorded when it started.
    var origin: String? { ExtendedAttributes.value(Self.originAttribute, of: descriptor) }
    /// The validator of the response the file started from.
    var validator: String? { ExtendedAttributes.value(Self.validatorAttribute, of: descriptor) }

    /// Empties the file, to start the download over, and records where it comes from.
    func restart(origin: URL, validator: String?) throws(NetworkError) {
        try end.withLock { (end: inout Int64) throws(NetworkError) in
            guard ftruncate(descriptor, 0) == 0 else { throw Self.failure(url, errno) }
            end = 0
        }
        ExtendedAttributes.set(Self.originAttribute, to: Self.recorded(origin), on: descriptor)
        ExtendedAttributes.set(Self.validatorAttribute, to: validator ?? "", on: descriptor)
    }

    /// Appends `bytes` and returns the new length.
    func append(_ bytes: UnsafeRawBufferPointer) throws(NetworkError) -> Int64 {
        try end.withLock { (end: inout Int64) throws(NetworkError) -> Int64 in
            var offset = 0
            while offset < bytes.count {
                let written = pwrite(
                    descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset,
                    off_t(end) + off_t(offset))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure(url, errno)
                }
                offset += written
            }
            end += Int64(offset)
            return end
        }
    }

    /// Waits until what was written is on the disk.
    func sync() throws(NetworkError) {
        guard fsync(descriptor) == 0 else { throw Self.failure(url, errno) }
    }

    /// `url` as an origin is recorded: without a user name or password.
    static func recorded(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }

    /// The system's `code` for the file at `url` as an error.
    static func failure(_ url: URL, _ code: Int32) -> NetworkError {
        let reason: String
        switch code {
        case ELOOP: reason = "it is a symbolic link"
        case ENOENT: reason = "no such directory"
        case EACCES, EPERM: reason = "permission denied"
        case ENOSPC: reason = "the disk is full"
        default: reason = String(cString: strerror(code)).lowercased()
        }
        return .file(path: url.path, reason: reason)
    }
}
