import Foundation
import Testing

@testable import Models

@Suite("JSONValue text")
struct JSONValueEscapingTests {
    @Test("C0, C1, bidirectional controls and invisible format characters are written as \\u escapes")
    func escapesControls() throws {
        let text = "a\u{1B}[1m\u{9B}\u{202E}b\u{2066}\u{200B}\u{FEFF}\u{2028}c\u{E0001}"
        let json = JSONValue.object(["k\u{202E}": .string(text)]).description
        #expect(json == #"{"k\u202e":"a\u001b[1m\u009b\u202eb\u2066\u200b\ufeff\u2028c\udb40\udc01"}"#)
        #expect(!json.unicodeScalars.contains { $0.isControlOrInvisibleFormat })
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(decoded == ["k\u{202E}": text])
        #expect(JSONValue.string("天気 👨‍👩‍👧 é ❤\u{FE0F}").description == "\"天気 👨‍👩‍👧 é ❤\u{FE0F}\"")
        #expect(JSONValue.string("a\u{E0041}\u{3164}").description == #""a\udb40\udc41\u3164""#)
    }
}
