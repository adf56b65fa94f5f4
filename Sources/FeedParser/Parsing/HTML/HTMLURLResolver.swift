import Foundation
import Markup

/// Makes the relative URLs in a piece of HTML absolute, as feedparser's `_resolveRelativeURIs`
/// does: an article's `<img src="pic.png">` means the picture beside the article, and points
/// nowhere once the HTML is shown anywhere else.
///
/// The attributes that hold a URL are `href`, `src`, `srcset` (each candidate), `poster`,
/// `cite`, `action`, `data`, `longdesc` and `background`, on any element. A value with a scheme
/// (`https:`, `mailto:`, `javascript:`, `data:` …) is left as it is, and so is every value when
/// the base is not an http(s) URL: a relative URL only ever becomes the web address it names
/// from the base, never a `file:` path. The rest of the HTML is returned byte for byte, uncopied
/// when nothing changes. One pass over the UTF-8 bytes with `HTMLTokenizer`, after a quicker one
/// that lets most HTML skip it (see `mayHoldRelativeURL`).
enum HTMLURLResolver {
    /// `html` with its relative URLs resolved against `base`. `checkingCandidatesFirst: false`
    /// tokenizes every piece of HTML (for tests: the result is the same).
    static func resolvingURLs(in html: String, against base: URL?, checkingCandidatesFirst: Bool = true) -> String {
        guard let base, let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return html
        }
        var html = html
        return html.withUTF8 { bytes -> String? in
            if checkingCandidatesFirst, !mayHoldRelativeURL(bytes) { return nil }
            var edits: [(range: Range<Int>, text: String)] = []
            scanTags(bytes) { name, range in
                let value = UnsafeBufferPointer(rebasing: bytes[range])
                if name == Name.srcset {
                    edits += resolvedCandidates(value, offset: range.lowerBound, base: base)
                } else if let resolved = resolved(value, base: base) {
                    edits.append((range, resolved))
                }
            }
            guard !edits.isEmpty else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + edits.count * 32)
            var copied = 0
            for edit in edits {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<edit.range.lowerBound]))
                output.append(contentsOf: edit.text.utf8)
                copied = edit.range.upperBound
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: output, as: UTF8.self)
        } ?? html
    }

    /// Calls `visit` with the lower-cased name and the value's byte range of every attribute
    /// that holds a URL, in document order, on start tags as `HTMLTokenizer` reads them: never in
    /// comments, declarations or the text of a `<script>`, `<style>`, `<textarea>` or `<title>`.
    private static func scanTags(_ bytes: UnsafeBufferPointer<UInt8>, _ visit: (Name, Range<Int>) -> Void) {
        let urlAttributes = Name.urlAttributes
        var tokenizer = HTMLTokenizer(bytes)
        while let token = tokenizer.nextMarkup() {
            guard case .startTag(let tag) = token, !tag.attributes.isEmpty else { continue }
            var attributes = HTMLAttributeReader(bytes, tag.attributes)
            while let attribute = attributes.next() {
                if let value = attribute.value, urlAttributes.contains(attribute.name) { visit(attribute.name, value) }
            }
        }
    }

    /// `value` resolved against `base` when it is a relative URL, else `nil`.
    private static func resolved(_ value: UnsafeBufferPointer<UInt8>, base: URL) -> String? {
        var lower = 0
        var upper = value.count
        while lower < upper, isSpace(value[lower]) { lower += 1 }
        while upper > lower, isSpace(value[upper - 1]) { upper -= 1 }
        guard lower < upper, !hasScheme(UnsafeBufferPointer(rebasing: value[lower..<upper])) else { return nil }
        let reference = String(decoding: UnsafeBufferPointer(rebasing: value[lower..<upper]), as: UTF8.self)
        guard let url = URL(string: reference, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        let text = url.absoluteString
        // Never a character that would end the attribute it goes into.
        guard !text.utf8.contains(where: { $0 == 0x22 || $0 == 0x27 || $0 == 0x3E || isSpace($0) }) else {
            return nil
        }
        return text
    }

    /// The edits that resolve each candidate URL of a `srcset` (`a.png 1x, b.png 2x`).
    private static func resolvedCandidates(
        _ value: UnsafeBufferPointer<UInt8>, offset: Int, base: URL
    ) -> [(range: Range<Int>, text: String)] {
        var edits: [(range: Range<Int>, text: String)] = []
        var index = 0
        while index < value.count {
            while index < value.count, isSpace(value[index]) || value[index] == UInt8(ascii: ",") {
                index += 1
            }
            let start = index
            while index < value.count, !isSpace(value[index]) { index += 1 }
            var end = index
            while end > start, value[end - 1] == UInt8(ascii: ",") { end -= 1 }
            if end > start, let text = resolved(UnsafeBufferPointer(rebasing: value[start..<end]), base: base) {
                edits.append(((offset + start)..<(offset + end), text))
            }
            // The descriptors (`2x`, `640w`), to the comma that ends the candidate.
            if end == index {
                while index < value.count, value[index] != UInt8(ascii: ",") { index += 1 }
            }
        }
        return edits
    }

    /// Whether the reference starts with a scheme (`name:` before any `/`, `?` or `#`).
    static func hasScheme(_ reference: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = reference.first, isLetter(first) else { return false }
        for byte in reference.dropFirst() {
            if byte == UInt8(ascii: ":") { return true }
            let isSchemeByte =
                isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !isSchemeByte { return false }
        }
        return false
    }
}

extension HTMLURLResolver {
    // `HTMLTokenizer.isSpace` and `isLetter` again: from FeedParser the release build calls
    // those out of line (even marked `@inlinable`), and these run for every byte the resolver's
    // loops cross.

    /// HTML's white space: space, tab, line feed, form feed, carriage return.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// An ASCII letter.
    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool {
        byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
    }
}

/// An element or attribute name (see `PackedName`).
private typealias Name = PackedName

extension HTMLURLResolver {
    /// The attributes that hold a URL, lower-cased: the tokenizing pass and `mayHoldRelativeURL`
    /// both read this list.
    static let urlAttributeNames = [
        "href", "src", "srcset", "poster", "cite", "action", "data", "longdesc", "background",
    ]
}

extension PackedName {
    fileprivate static let srcset = PackedName("srcset")
    fileprivate static let urlAttributes = HTMLURLResolver.urlAttributeNames.map(PackedName.init)
}
