package import Foundation

/// Windows-1252, as the WHATWG Encoding Standard and every browser read it: ISO-8859-1 but for
/// bytes 0x80–0x9F, which are punctuation and letters (`€`, `“`, `–`, `Š` …). The five bytes
/// Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) stay the C1 controls of the
/// same value.
///
/// Used to re-read a document that claims UTF-8 but is Windows-1252 (`EncodingRepair`), and to
/// read the references `&#128;`–`&#159;` as HTML5 does (`HTMLEntities`,
/// `HTMLEntityPreprocessor`).
package enum Windows1252 {
    /// The code points of bytes 0x80–0x9F.
    private static let high: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
        0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
        0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// The code point a C1 value (0x80–0x9F) stands for in Windows-1252; any other value as it is.
    package static func codePoint(_ value: UInt32) -> UInt32 {
        value >= 0x80 && value <= 0x9F ? high[Int(value - 0x80)] : value
    }

    /// `data` read as Windows-1252, as UTF-8.
    package static func decode(_ data: Data) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(data.count + data.count / 8)
        for byte in data {
            if byte < 0x80 {
                output.append(byte)
            } else if let scalar = Unicode.Scalar(codePoint(UInt32(byte))) {
                output.append(contentsOf: scalar.utf8)
            }
        }
        return Data(output)
    }
}
