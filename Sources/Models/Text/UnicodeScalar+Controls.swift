extension Unicode.Scalar {
    /// Whether the scalar must never reach a terminal raw: C0 and C1 controls, DEL, the
    /// bidirectional controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI), invisible format characters
    /// (zero-width space, word joiner and invisible operators, BOM, soft hyphen, Mongolian vowel
    /// separator, interlinear annotations, the language tag, deprecated format controls) and
    /// noncharacters. Zero-width joiner and non-joiner are not: scripts and emoji need them.
    ///
    /// The terminal output boundary removes these; JSON output writes them as `\u` escapes.
    package var isControlOrInvisibleFormat: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0xAD, 0x61C, 0x180E, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F: true
        case 0x2028, 0x2029, 0xFEFF, 0xFFF9...0xFFFB, 0xFDD0...0xFDEF, 0xFFFE, 0xFFFF, 0xE0001: true
        default: false
        }
    }
}
