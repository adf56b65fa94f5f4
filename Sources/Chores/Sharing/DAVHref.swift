import Foundation

/// Hrefs and entity tags as a CalDAV client must compare them.
///
/// Servers spell one path several ways: `a%40b.ics` and `a@b.ics`, `%c3%a9` and `é`, a path or
/// a whole URL (RFC 4918 §8.3). An href is kept and compared in one canonical form, still
/// percent-encoded: an escape of a character a path may hold as it is (RFC 3986 `pchar`:
/// unreserved, sub-delims, `:` and `@`) is decoded, every other byte is escaped, hex digits in
/// upper case. An escaped `/` (`%2F`) stays escaped: it is part of a name, not a separator, and
/// a server that named an object `a%2Fb.ics` finds nothing at `a/b.ics`.
enum DAVHref {
    /// The canonical form of `path` (already a path: see `path(of:)` for whole URLs).
    /// Idempotent: the canonical form of a canonical form is itself.
    static func canonical(_ path: String) -> String {
        let bytes = Array(path.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                let decoded = high << 4 | low
                if isRaw(decoded) { out.append(decoded) } else { escape(decoded, into: &out) }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "/") || isRaw(byte) { out.append(byte) } else { escape(byte, into: &out) }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The canonical path of an href as a server sends it: the path itself, or the path of a
    /// whole URL (`http://host/a/b.ics` → `/a/b.ics`), its query and fragment left out.
    static func path(of href: String) -> String {
        guard let scheme = href.range(of: "://") else { return canonical(href) }
        let rest = href[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        let path = rest[slash...].prefix { $0 != "?" && $0 != "#" }
        return canonical(String(path))
    }

    /// Whether `byte` is left as it is in a path segment: RFC 3986 unreserved, sub-delims,
    /// `:` and `@`.
    private static func isRaw(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@".utf8.contains(byte)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
    }
}

/// An entity tag (RFC 9110 §8.8.3): `"x"` is strong, `W/"x"` weak.
enum EntityTag {
    static func isWeak(_ tag: String) -> Bool { tag.hasPrefix("W/") }

    /// The tag without its weakness marker: `W/"x"` → `"x"`.
    static func opaque(_ tag: String) -> String { isWeak(tag) ? String(tag.dropFirst(2)) : tag }

    /// The weak comparison (RFC 9110 §8.8.3.2): the same opaque value, weak or not. Whether an
    /// object changed is asked this way: a server that weakens its tags in some answers (a
    /// compressing proxy, Apache for a file changed within the second) still names the same
    /// version.
    static func weaklyEqual(_ a: String, _ b: String) -> Bool { opaque(a) == opaque(b) }
}
