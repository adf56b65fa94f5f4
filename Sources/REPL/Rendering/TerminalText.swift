import Foundation
import Models

/// The one output boundary: every string the program prints passes `forTerminal(_:)` (through
/// `Console`), so text from feeds, servers, configs, OPML files and the user's own typing can
/// never drive the terminal.
enum TerminalText {
    /// `text` as it may reach a terminal: escape sequences (CSI, OSC, any other ESC pair),
    /// C0 controls but newline and tab, DEL, C1 controls, bidirectional controls and other
    /// invisible format characters are removed; colour asked for with `styled(_:_:)` becomes
    /// SGR sequences.
    static func forTerminal(_ text: String) -> String {
        // Most output is printable ASCII with newlines and tabs: nothing to remove or resolve.
        if text.utf8.allBytes({ (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x09 }) { return text }
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var markers = false
        while let scalar = scalars.next() {
            if scalar.value == 0x1B {
                skipEscapeSequence(&scalars)
            } else if scalar == styleOpen || scalar == styleClose {
                output.append(scalar)  // resolved below
                markers = true
            } else if scalar == "\n" || scalar == "\t" || !isUnsafe(scalar) {
                output.append(scalar)
            }
        }
        guard markers else { return String(output) }
        return String(
            String.UnicodeScalarView(
                styled(String(output)).unicodeScalars.filter {
                    $0 != styleOpen && $0 != styleClose
                }))
    }

    /// `text` with this process's style markers turned into SGR sequences (`ESC[1m`). A marker
    /// must carry the process's secret, so one written by outside text is not a style: its
    /// noncharacters are removed later with every other unsafe scalar, and nothing after them is.
    private static func styled(_ text: String) -> String {
        let opening = String(styleOpen) + styleSecret
        guard text.contains(opening) else { return text }
        var output = ""
        var rest = Substring(text)
        while let start = rest.range(of: opening) {
            output += rest[..<start.lowerBound]
            let tail = rest[start.upperBound...]
            guard let end = tail.firstIndex(of: Character(styleClose)) else {
                rest = tail
                break
            }
            let code = tail[..<end]
            if isStyleCode(code) {
                output += "\u{1B}[\(code)m"
            }
            rest = tail[tail.index(after: end)...]
        }
        return output + rest
    }

    /// One line of text for a table cell or a quoted title: `forTerminal`'s removals, and tabs
    /// and line breaks become spaces.
    static func sanitized(_ text: String) -> String {
        // Printable ASCII (most titles and URLs) has nothing to remove or replace.
        if text.utf8.allBytes({ (0x20...0x7E).contains($0) }) { return text }
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\u{1B}": skipEscapeSequence(&scalars)
            case "\t", "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}": output.append(" ")
            case styleOpen: skipStyleMarker(&scalars)
            default: if !isUnsafe(scalar) && scalar != styleClose { output.append(scalar) }
            }
        }
        return String(output)
    }

    /// A title (of a feed, an item) quoted inside a one-line message: `sanitized(_:)`, fitted
    /// to `quotedLength` columns with an ellipsis. A server chooses its titles, and a 9 MB one
    /// would otherwise be the whole message.
    static func quoted(_ text: String) -> String {
        DisplayWidth.fit(sanitized(text), width: quotedLength)
    }

    /// The most columns `quoted(_:)` keeps.
    static let quotedLength = 200

    /// Like `sanitized(_:)`, but newlines stay, for article text wrapped into paragraphs.
    static func sanitizedKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { sanitized(String($0)) }
            .joined(separator: "\n")
    }

    /// `text` marked to be shown in an SGR style (`"1"` bold, `"31"` red) by `forTerminal`.
    static func styled(_ text: String, _ code: String) -> String {
        "\(styleOpen)\(styleSecret)\(code)\(styleClose)\(text)\(styleOpen)\(styleSecret)0\(styleClose)"
    }

    /// The style code and the text of a string that `styled(_:_:)` made whole (a table cell in
    /// colour), or `nil` for any other string: a table measures, cuts and sanitises the text
    /// alone and styles what it kept.
    static func unstyled(_ text: String) -> (code: String, text: Substring)? {
        guard text.unicodeScalars.first == styleOpen else { return nil }
        let opening = String(styleOpen) + styleSecret
        let closing = opening + "0" + String(styleClose)
        guard text.hasPrefix(opening), text.hasSuffix(closing) else { return nil }
        let afterOpening = text.index(text.startIndex, offsetBy: opening.count)
        guard let end = text[afterOpening...].firstIndex(of: Character(styleClose)) else { return nil }
        let code = text[afterOpening..<end]
        let inner = text[text.index(after: end)..<text.index(text.endIndex, offsetBy: -closing.count)]
        guard isStyleCode(code) else { return nil }
        return (String(code), inner)
    }

    /// Whether a scalar must never reach a terminal (see `isControlOrInvisibleFormat`).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { scalar.isControlOrInvisibleFormat }

    /// Skips what follows an ESC: a CSI (`ESC [` … final byte), an OSC/DCS/APC/PM/SOS string
    /// (up to BEL or ST), or the one character of a two-character sequence.
    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let kind = scalars.next() else { return }
        switch kind {
        case "[": while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
        case "]", "P", "X", "^", "_":
            while let next = scalars.next(), next.value != 0x07 {
                if next.value == 0x1B {
                    _ = scalars.next()  // ST is ESC \
                    return
                }
            }
        default: return
        }
    }

    /// Drops one of this process's style markers (after its opening noncharacter: the secret,
    /// the code and the closing noncharacter) from text that is shown without style. Anything
    /// else after an opening noncharacter (outside text that holds one) is kept, as text.
    private static func skipStyleMarker(_ scalars: inout String.UnicodeScalarView.Iterator) {
        var look = scalars
        var secret = styleSecret.unicodeScalars.makeIterator()
        while let expected = secret.next() {
            guard look.next() == expected else { return }
        }
        var code = ""
        while let next = look.next() {
            if next == styleClose {
                if isStyleCode(Substring(code)) { scalars = look }
                return
            }
            guard next.isASCII else { return }
            code.unicodeScalars.append(next)
        }
    }

    /// Whether `code` is an SGR parameter list a style may carry: digits and semicolons.
    private static func isStyleCode(_ code: Substring) -> Bool {
        !code.isEmpty && code.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ";") }
    }

    /// Style markers: noncharacters, which `isUnsafe` removes from any other text, around a
    /// secret drawn once per process, so that text from outside cannot forge a style.
    private static let styleOpen = Unicode.Scalar(UInt32(0xFDD0)) ?? "\u{FFFD}"
    private static let styleClose = Unicode.Scalar(UInt32(0xFDD1)) ?? "\u{FFFD}"
    private static let styleSecret = String(UInt64.random(in: 1...UInt64.max), radix: 36) + ":"
}

extension Sequence<UInt8> {
    /// `allSatisfy` over the bytes in place when they are stored contiguously (a native string
    /// or substring): a tight loop instead of the view's index walk, which showed in listing many
    /// feeds.
    @inline(__always)
    func allBytes(_ predicate: (UInt8) -> Bool) -> Bool {
        withContiguousStorageIfAvailable { bytes in bytes.allSatisfy(predicate) } ?? allSatisfy(predicate)
    }
}
