import Foundation

/// What a feed's body is remembered by, to skip parsing a body already merged: XXH64, a
/// non-cryptographic 64-bit hash at several GB/s (SHA-256 in Swift showed in a cold refresh's
/// time). A collision only costs a skipped parse of a body its own server chose to serve; an
/// accidental one is a 1 in 2^64 event.
enum BodyDigest {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The stored form: the algorithm's name, so a value from another algorithm never matches.
    static func text(of data: Data) -> String {
        let hash = data.withUnsafeBytes { xxh64($0) }
        let hex = String(hash, radix: 16)
        return "xxh64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    @inline(__always) private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        (accumulator &+ input &* prime2).rotated(31) &* prime1
    }

    @inline(__always) private static func merge(_ hash: UInt64, _ accumulator: UInt64) -> UInt64 {
        (hash ^ round(0, accumulator)) &* prime1 &+ prime4
    }

    /// XXH64 with seed 0.
    static func xxh64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var offset = 0
        @inline(__always) func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        var hash: UInt64
        if count >= 32 {
            var v1 = prime1 &+ prime2
            var v2 = prime2
            var v3: UInt64 = 0
            var v4 = 0 &- prime1
            while offset + 32 <= count {
                v1 = round(v1, word(offset))
                v2 = round(v2, word(offset + 8))
                v3 = round(v3, word(offset + 16))
                v4 = round(v4, word(offset + 24))
                offset += 32
            }
            hash = v1.rotated(1) &+ v2.rotated(7) &+ v3.rotated(12) &+ v4.rotated(18)
            hash = merge(merge(merge(merge(hash, v1), v2), v3), v4)
        } else {
            hash = prime5
        }
        hash = hash &+ UInt64(count)
        while offset + 8 <= count {
            hash = (hash ^ round(0, word(offset))).rotated(27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = (hash ^ (half &* prime1)).rotated(23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash = (hash ^ (UInt64(bytes[offset]) &* prime5)).rotated(11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        hash ^= hash >> 32
        return hash
    }
}

extension UInt64 {
    @inline(__always) fileprivate func rotated(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
