import Foundation
import Markup

extension HTMLURLResolver {
    /// Whether `bytes` may hold a URL that the tokenizing pass would rewrite: `false` only when
    /// it certainly holds none, and the HTML is then returned without being tokenized. Feeds
    /// mostly write absolute URLs, and for them this is a `memchr` from one `=` to the next.
    ///
    /// Why `false` is safe: every value `HTMLAttributeReader` reads follows an `=`, with only
    /// white space between it and the attribute's name, and a name starts after white space, a
    /// `/` or the quote that closed the value before it. A value is rewritten only when its name
    /// is one of `urlAttributeNames` and, past white space and an opening quote (and the white
    /// space `resolved` trims), it does not start with a scheme; a `srcset` is rewritten by its
    /// candidates, which this does not look at. So an `=` that is not after such a name, or
    /// whose value starts with a scheme (whose bytes never end a value), gives no rewrite. An
    /// `=` that might is reason enough to tokenize: this may answer `true` for HTML the tokenizer
    /// finds nothing to rewrite in (an `=` in text, a comment, a script), never `false` for HTML
    /// it would rewrite. Tested against the tokenizing pass on fixtures and generated HTML.
    static func mayHoldRelativeURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return false }
        let count = bytes.count
        let names = CandidateName.all
        var search = 0
        while search < count, let found = memchr(start + search, Int32(UInt8(ascii: "=")), count - search) {
            let equals = start.distance(to: found.assumingMemoryBound(to: UInt8.self))
            search = equals + 1
            // The name before the `=`, past white space.
            var nameEnd = equals
            while nameEnd > 0, isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
            guard nameEnd > 0 else { continue }
            let last = bytes[nameEnd - 1] | 0x20
            guard let candidate = names.first(where: { $0.last == last && $0.isSpelled(before: nameEnd, in: bytes) })
            else { continue }
            if candidate.isSrcset { return true }
            var value = equals + 1
            while value < count, isSpace(bytes[value]) { value += 1 }
            if value < count, bytes[value] == UInt8(ascii: "\"") || bytes[value] == UInt8(ascii: "'") {
                value += 1
                while value < count, isSpace(bytes[value]) { value += 1 }
            }
            if !hasScheme(UnsafeBufferPointer(rebasing: bytes[value...])) { return true }
        }
        return false
    }
}

/// One of `HTMLURLResolver.urlAttributeNames`, as `mayHoldRelativeURL` looks for it before an `=`.
private struct CandidateName {
    static let all = HTMLURLResolver.urlAttributeNames.map(CandidateName.init)

    /// The name's bytes, lower-cased.
    let spelling: [UInt8]
    /// Its last byte, compared first.
    let last: UInt8
    let isSrcset: Bool

    init(_ name: String) {
        spelling = Array(name.utf8)
        last = spelling.last ?? 0
        isSrcset = name == "srcset"
    }

    /// Whether the bytes before `end` may be this name, in any case, as a whole attribute name:
    /// at the start of `bytes` or after white space, `/`, `"` or `'`. `| 0x20` lower-cases a
    /// letter; it also maps a few other bytes to one another, which only makes the answer yes
    /// more often.
    func isSpelled(before end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = end - spelling.count
        guard start >= 0 else { return false }
        for offset in spelling.indices where bytes[start + offset] | 0x20 != spelling[offset] { return false }
        guard start > 0 else { return true }
        let before = bytes[start - 1]
        return HTMLURLResolver.isSpace(before) || before == UInt8(ascii: "/") || before == UInt8(ascii: "\"")
            || before == UInt8(ascii: "'")
    }
}
