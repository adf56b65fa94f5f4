/// An HTML element or attribute name, lower-cased as it is read byte by byte and packed into two
/// words, so names compare without making a `String`; names longer than sixteen bytes never
/// equal a known one. `HTMLTokenizer` reads tag and attribute names as these.
package struct PackedName: Hashable, Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private var length = 0

    package init() {}

    package init(_ text: String) {
        for byte in text.utf8 { append(byte) }
    }

    package mutating func append(_ byte: UInt8) {
        let lower = UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        if length < 8 {
            low |= lower << (8 * length)
        } else if length < 16 {
            high |= lower << (8 * (length - 8))
        }
        length += 1
    }
}
