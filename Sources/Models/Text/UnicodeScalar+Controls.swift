extension Unicode.Scalar {
    /// Whether the scalar must never reach a terminal raw: C0 and C1 controls, DEL, every
    /// format character (Unicode's category Cf: bidirectional controls, zero-width space, word
    /// joiner and invisible operators, BOM, soft hyphen, tags, interlinear annotations, musical
    /// and hieroglyph format controls, ...), line and paragraph separators, noncharacters, and
    /// the characters that draw nothing although they are letters or marks (Hangul fillers,
    /// the combining grapheme joiner, Khmer inherent vowels, Mongolian variation selectors).
    /// Zero-width joiner and non-joiner are kept, and so are variation selectors U+FE00–FE0F
    /// and U+E0100–E01EF: scripts and emoji need them.
    ///
    /// The terminal output boundary removes these; JSON output writes them as `\u` escapes.
    package var isControlOrInvisibleFormat: Bool {
        switch value {
        case 0x20...0x7E: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200C, 0x200D: return false
        case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x3164, 0xFFA0: return true
        case 0x2028, 0x2029, 0xFDD0...0xFDEF: return true
        case let code where code & 0xFFFE == 0xFFFE: return true  // U+FFFE, U+FFFF, U+1FFFE, ...
        default: return properties.generalCategory == .format
        }
    }
}
