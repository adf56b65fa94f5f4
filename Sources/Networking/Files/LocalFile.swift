internal import CMappedFile
package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemRead = Darwin.read
#endif

/// Reads a local file the user named, with a size cap, as the transport caps HTTP bodies: a
/// regular file over the cap is refused before a byte is read; a device or pipe (`/dev/zero`, a
/// FIFO) is read only up to the cap.
///
/// Asked to (`mapping`: feeds, which can be hundreds of megabytes), a regular file is mapped
/// instead of copied: filling that much fresh memory costs far more than mapping it.
/// A file that another program truncates while it is mapped does not kill the process (SIGBUS):
/// what was cut off reads as zero bytes (`CMappedFile`), so a feed reads as cut off there. What
/// is checked once and kept (a configuration) is copied, so that it stays what was checked.
package enum LocalFile {
    /// The largest local document read: 256 MB.
    package static let defaultLimit = 256_000_000

    /// Why a file could not be read.
    package enum Failure: Error, Sendable, Equatable {
        /// The file is larger than `limit` bytes.
        case tooLarge(limit: Int)
        /// The path names a directory.
        case directory
        /// The system refused (no such file, permission denied, ...): its words.
        case system(String)

        /// The reason in words, after the path: `cannot read /x: no such file`.
        package var reason: String {
            switch self {
            case .tooLarge(let limit): "it is larger than \(limit / 1_000_000) MB"
            case .directory: "it is a directory"
            case .system(let words): words
            }
        }
    }

    /// The contents of the file at `url`, at most `limit` bytes; mapped when `mapping` (see the
    /// type's notes).
    package static func read(_ url: URL, limit: Int = defaultLimit, mapping: Bool = false) throws(Failure) -> Data {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(words(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(words(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            throw .directory
        case S_IFREG:
            guard status.st_size <= limit else { throw .tooLarge(limit: limit) }
            let size = Int(status.st_size)
            // Files that report no size (`/proc`) are read to their end; so is what cannot be
            // mapped (some network and FUSE file systems), from the file already opened.
            guard mapping, size > 0, let address = tidings_map_file(descriptor, size) else {
                return try readStream(descriptor, limit: limit)
            }
            return Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: address), count: size,
                deallocator: .custom { pointer, _ in _ = tidings_unmap_file(pointer, size) })
        default:
            return try readStream(descriptor, limit: limit)
        }
    }

    /// The system's reason in the words the rest of Tidings uses.
    private static func words(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    /// Reads a pipe or device until its end, refusing more than `limit` bytes.
    private static func readStream(_ descriptor: Int32, limit: Int) throws(Failure) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(words(errno))
            }
            if count == 0 { return data }
            guard data.count + count <= limit else { throw .tooLarge(limit: limit) }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}
