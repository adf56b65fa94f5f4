extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, CR, LF).
    ///
    /// Foundation's `trimmingCharacters(in:)` bridges through NSString and UTF-16; on a feed's
    /// text nodes it took half of all parsing time.
    var trimmedWhitespace: String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !Self.isSpace($0) }) else { return "" }
        guard let last = utf8.lastIndex(where: { !Self.isSpace($0) }) else { return "" }
        if first == utf8.startIndex, utf8.index(after: last) == utf8.endIndex { return self }
        return String(self[first...last])
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
