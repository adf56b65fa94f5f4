import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Extended attributes (`user.*`) of open files: where a download records the address it came
/// from (`user.xdg.origin.url`, as curl's and wget's `--xattr` and Chromium write it) and the
/// validator it may be resumed with.
///
/// Linux only, and best effort: a file system without user attributes (or another platform)
/// simply has none: reading gives `nil`, writing does nothing. `fgetxattr` and `fsetxattr` are
/// looked up in the C library at run time because Glibc's module map leaves out
/// `<sys/xattr.h>`.
enum ExtendedAttributes {
    #if os(Linux)
        private typealias Getter = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        private typealias Setter = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    #endif

    /// The longest value read.
    private static let maxLength = 8192

    /// The value of attribute `name` of the open file `descriptor`, when it has one in UTF-8.
    static func value(_ name: String, of descriptor: Int32) -> String? {
        #if os(Linux)
            guard let symbol = dlsym(nil, "fgetxattr") else { return nil }
            let get = unsafeBitCast(symbol, to: Getter.self)
            var buffer = [UInt8](repeating: 0, count: maxLength)
            let count = buffer.withUnsafeMutableBytes { get(descriptor, name, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            return String(validating: buffer[0..<count], as: UTF8.self)
        #else
            return nil
        #endif
    }

    /// Sets attribute `name` of the open file `descriptor` to `value`, where the file system
    /// keeps such attributes.
    static func set(_ name: String, to value: String, on descriptor: Int32) {
        #if os(Linux)
            guard let symbol = dlsym(nil, "fsetxattr"), value.utf8.count <= maxLength else { return }
            let set = unsafeBitCast(symbol, to: Setter.self)
            var bytes = Array(value.utf8)
            _ = bytes.withUnsafeMutableBytes { set(descriptor, name, $0.baseAddress, $0.count, 0) }
        #endif
    }

    /// The value of attribute `name` of the file at `url` (not following a symbolic link).
    static func value(_ name: String, ofFileAt url: URL) -> String? {
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return value(name, of: descriptor)
    }
}
