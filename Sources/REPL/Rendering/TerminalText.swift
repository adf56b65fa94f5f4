import Foundation

/// Makes text from a feed safe to print on a terminal.
enum TerminalText {
    /// `text` without control characters or escape sequences (an `ESC]0;…` title or `ESC[2J`
    /// prints harmlessly); tabs and newlines become spaces.
    static func sanitized(_ text: String) -> String {
        var output = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                // Skip the escape sequence: CSI (ESC [ … final byte) or OSC (ESC ] … BEL/ST).
                guard let kind = scalars.next() else { break }
                if kind == "[" {
                    while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
                } else if kind == "]" {
                    while let next = scalars.next(), next.value != 0x07, next.value != 0x1B {}
                }
            case 0x09, 0x0A, 0x0D: output.append(" ")
            case 0x00...0x1F, 0x7F, 0x80...0x9F: continue
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

extension TerminalText {
    /// Like `sanitized(_:)`, but newlines stay, for article text wrapped into paragraphs.
    static func sanitizedKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { sanitized(String($0)) }
            .joined(separator: "\n")
    }
}
