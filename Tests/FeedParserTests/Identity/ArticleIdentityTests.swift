import Foundation
import Testing

@testable import FeedParser

@Suite("Article identity")
struct ArticleIdentityTests {
    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256Vectors() {
        #expect(SHA256.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(of: Data(repeating: UInt8(ascii: "a"), count: 1_000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    let date = Date(timeIntervalSince1970: 1_615_626_000)
    let permalink = URL(string: "https://example.org/p")
    let link = URL(string: "https://example.org/l")

    @Test("the feed's own id wins, trimmed")
    func ownID() {
        #expect(
            ArticleIdentity.uniqueID(
                id: " guid-1 ", permalink: permalink, link: link, title: "T", date: date, body: "B") == "guid-1")
    }

    @Test("without an id, the first available of the rule's sources is hashed, in order")
    func ruleOrder() {
        func id(_ permalink: URL?, _ link: URL?, _ title: String?, _ date: Date?, _ body: String?) -> String {
            ArticleIdentity.uniqueID(id: nil, permalink: permalink, link: link, title: title, date: date, body: body)
        }
        let stamp = "2021-03-13T09:00:00Z"
        #expect(id(permalink, link, "T", date, "B") == SHA256.hex(of: Data(("https://example.org/p" + stamp).utf8)))
        #expect(id(nil, link, "T", date, "B") == SHA256.hex(of: Data(("https://example.org/l" + stamp).utf8)))
        #expect(id(nil, nil, "T", date, "B") == SHA256.hex(of: Data(("T" + stamp).utf8)))
        #expect(id(nil, nil, nil, date, "B") == SHA256.hex(of: Data(stamp.utf8)))
        #expect(id(permalink, link, "T", nil, "B") == SHA256.hex(of: Data("https://example.org/p".utf8)))
        #expect(id(nil, link, "T", nil, "B") == SHA256.hex(of: Data("https://example.org/l".utf8)))
        #expect(id(nil, nil, "T", nil, "B") == SHA256.hex(of: Data("T".utf8)))
        #expect(id(nil, nil, nil, nil, "B") == SHA256.hex(of: Data("B".utf8)))
        #expect(!id(nil, nil, nil, nil, nil).isEmpty)
    }

    @Test("the same entry gets the same id on every run (a pinned value guards the rule)")
    func pinned() {
        // If this changes, every user's articles would be duplicated: see ArticleIdentity.
        #expect(
            ArticleIdentity.uniqueID(id: nil, permalink: permalink, link: nil, title: "T", date: date, body: nil)
                == "e1d6b232597ff6d0953cbccdcc857bfc80499555a32c679ca71e00337b840cce")
    }
}
