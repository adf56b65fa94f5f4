import Foundation

/// A `Content-Range` header of a byte range (RFC 9110 §14.4): `bytes 100-199/1000` (a 206's
/// part of a file of 1,000 bytes, its length `*` when unknown) or `bytes */1000` (a 416's
/// length of the whole file).
package struct ContentRange: Sendable, Equatable {
    /// The first and last byte sent; `nil` in a 416's `bytes */LENGTH`.
    package var first: Int64?
    package var last: Int64?
    /// The length of the whole file; `nil` when the server wrote `*`.
    package var length: Int64?

    package init(first: Int64?, last: Int64?, length: Int64?) {
        self.first = first
        self.last = last
        self.length = length
    }

    /// Reads `text`; `nil` when it is not a byte range of the forms above (or its numbers do not
    /// fit together: a last byte before the first, or at or past the length).
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces).split(
            separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[1] == "*" {
            length = nil
        } else {
            guard let total = Self.number(parts[1]) else { return nil }
            length = total
        }
        if parts[0] == "*" {
            guard length != nil else { return nil }
            first = nil
            last = nil
            return
        }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]), first <= last
        else { return nil }
        if let length, last >= length { return nil }
        self.first = first
        self.last = last
    }

    /// A decimal number of digits only.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
