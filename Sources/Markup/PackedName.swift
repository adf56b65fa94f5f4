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

extension PackedName {
    /// A cheap mix of the packed words, for `PackedNameSet`.
    @inline(__always)
    fileprivate var scrambled: UInt64 {
        (low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: length)) &* 0xBF58_476D_1CE4_E5B9
    }
}

/// A fixed set of names, looked up by one multiplication and a compare or two: `Set`'s hashing
/// cost more than the rest of HTML to text's work on a tag.
package struct PackedNameSet: Sendable {
    /// Open addressing, at most a quarter full, so a probe ends soon at an empty slot.
    private let slots: [PackedName?]
    private let shift: UInt64

    package init(_ names: [String]) {
        var bits: UInt64 = 4
        while 1 << bits < names.count * 4 { bits += 1 }
        var slots = [PackedName?](repeating: nil, count: 1 << bits)
        let shift = 64 - bits
        for name in names.map(PackedName.init) {
            var index = Int(truncatingIfNeeded: name.scrambled >> shift)
            while let slot = slots[index], slot != name { index = (index + 1) & (slots.count - 1) }
            slots[index] = name
        }
        self.slots = slots
        self.shift = shift
    }

    /// Inlined: the tokenizer asks once for every start tag.
    @inline(__always)
    package func contains(_ name: PackedName) -> Bool {
        var index = Int(truncatingIfNeeded: name.scrambled >> shift)
        while let slot = slots[index] {
            if slot == name { return true }
            index = (index + 1) & (slots.count - 1)
        }
        return false
    }
}
