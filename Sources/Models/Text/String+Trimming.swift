extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, CR, LF).
    ///
    /// Foundation's `trimmingCharacters(in:)` bridges through NSString and UTF-16; too slow for
    /// every text node of a feed.
    package var trimmedWhitespace: String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !Self.isSpace($0) }) else { return "" }
        guard let last = utf8.lastIndex(where: { !Self.isSpace($0) }) else { return "" }
        if first == utf8.startIndex, utf8.index(after: last) == utf8.endIndex { return self }
        return String(self[first...last])
    }

    /// The string without the spaces around it as `CharacterSet.whitespaces` counts them (tab
    /// and every space separator, the no-break and ideographic spaces too), trimmed natively:
    /// its first use through `NSString` cost `tidings parse` about half a millisecond.
    package var trimmedSpaces: String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The string with every run of whitespace (spaces, tabs, line breaks) made one space, and
    /// none at either end: how a title or a name reads on one line. Returned as it is when it
    /// has nothing to collapse.
    package var collapsingWhitespace: String {
        var copy = self
        let collapsed = copy.withUTF8 { bytes in
            // Collapsed already when no space leads, trails, or follows another, and no tab or
            // line break occurs.
            var previousWasSpace = true
            for byte in bytes {
                if byte > 0x20 {
                    previousWasSpace = false
                    continue
                }
                let isSpace = Self.isSpace(byte)
                if isSpace && (previousWasSpace || byte != 0x20) { return false }
                previousWasSpace = isSpace
            }
            return !previousWasSpace || bytes.isEmpty
        }
        if collapsed { return self }
        return split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .joined(separator: " ")
    }

    /// The string, or `nil` when it is empty.
    package var nonEmpty: String? { isEmpty ? nil : self }
}
