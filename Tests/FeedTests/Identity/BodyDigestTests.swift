import Foundation
import Testing

@testable import Feed
@testable import FeedParser

@Suite("What a body is remembered by")
struct BodyDigestTests {
    /// XXH64's published values (seed 0), as the `xxhash` Python package computes them: every
    /// path of the algorithm (stripes, 8-, 4- and 1-byte tails).
    @Test(
        "XXH64 of reference inputs",
        arguments: [
            (Data(), "ef46db3751d8e999"),
            (Data("a".utf8), "d24ec4f1a98c6e5b"),
            (Data("abc".utf8), "44bc2cf5ad770999"),
            (Data("Nobody inspects the spammish repetition".utf8), "fbcea83c8a378bf1"),
            (Data((0..<3).flatMap { _ in (0...255).map(UInt8.init) }) + Data("tail12345".utf8), "d67972c7a820d1cb"),
        ])
    func reference(input: Data, expected: String) {
        #expect(BodyDigest.text(of: input) == "xxh64:" + expected)
    }

    @Test("one changed byte changes it; an old SHA-256 value never equals it")
    func sensitivity() {
        var body = Data(repeating: UInt8(ascii: "x"), count: 10_000)
        let before = BodyDigest.text(of: body)
        body[9_999] = UInt8(ascii: "y")
        #expect(BodyDigest.text(of: body) != before)
        #expect(BodyDigest.text(of: body).count == 6 + 16)
        #expect(SHA256.hex(of: body) != BodyDigest.text(of: body))
    }
}
