import CTerminal
import Foundation

/// How many terminal columns text takes: East Asian wide and fullwidth characters and emoji
/// take two, combining marks and other zero-width characters none, everything else one. Each
/// grapheme cluster (a Swift `Character`) is measured as a terminal draws it: an emoji sequence
/// (ZWJ, a variation selector 16, a flag) is two columns, a base with its marks is the base.
///
/// The character tables are the C library's (`wcwidth`) under a UTF-8 `LC_CTYPE`: the user's,
/// or `C.UTF-8` when theirs is not UTF-8.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allBytes({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns one grapheme cluster takes (0, 1 or 2).
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII { return first.value >= 0x20 && first.value < 0x7F ? 1 : 0 }
        _ = prepared
        if scalars.count == 1 { return max(0, Int(tidings_wcwidth(first.value))) }
        if scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D })
            || (0x1F1E6...0x1F1FF).contains(first.value)
        {
            return 2
        }
        return min(2, scalars.reduce(0) { $0 + max(0, Int(tidings_wcwidth($1.value))) })
    }

    /// The longest prefix of `text` that fits in `width` columns.
    static func prefix(of text: some StringProtocol, fitting width: Int) -> Substring {
        let text = Substring(text)
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let next = used + of(text[index])
            if next > width { break }
            used = next
            end = text.index(after: index)
        }
        return text[..<end]
    }

    /// `text` cut to `width` columns, the last one an ellipsis when cut.
    static func fit(_ text: String, width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 1 else { return String(prefix(of: text, fitting: max(0, width))) }
        return String(prefix(of: text, fitting: width - 1)) + "…"
    }

    /// `text` padded with spaces to `width` columns (on the left when `right` is set).
    static func pad(_ text: String, to width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - of(text)))
        return right ? padding + text : text + padding
    }

    /// A UTF-8 character type for `wcwidth`, chosen once: the environment's if it is UTF-8,
    /// else `C.UTF-8`.
    private static let prepared: Void = tidings_prepare_ctype()
}
