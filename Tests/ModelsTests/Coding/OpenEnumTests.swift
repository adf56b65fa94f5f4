import Foundation
import Models
import Testing

@Suite("Open enums")
struct OpenEnumTests {
    @Test("known raw values decode to their cases")
    func knownValues() throws {
        let formats = try JSONDecoder().decode(
            [FeedFormat].self, from: Data(#"["rss2.0","atom1.0","jsonfeed1.1"]"#.utf8))
        #expect(formats == [.rss20, .atom10, .jsonFeed11])
        #expect(formats.allSatisfy { $0.isKnown })
    }

    @Test("an unknown raw value is kept as .other instead of failing")
    func unknownValueKept() throws {
        let formats = try JSONDecoder().decode([FeedFormat].self, from: Data(#"["rss2.0","activitystreams2"]"#.utf8))
        #expect(formats == [.rss20, .other("activitystreams2")])
        #expect(!formats[1].isKnown)
    }

    @Test("unknown values encode back unchanged")
    func unknownValueRoundTrip() throws {
        let json = #"["activitystreams2","rss1.0"]"#
        let formats = try JSONDecoder().decode([FeedFormat].self, from: Data(json.utf8))
        #expect(String(decoding: try JSONEncoder().encode(formats), as: UTF8.self) == json)
    }

    @Test("every known case round-trips through its raw value")
    func rawValueRoundTrip() {
        for format in FeedFormat.knownCases {
            #expect(FeedFormat(rawValue: format.rawValue) == format)
        }
        #expect(FeedFormat(rawValue: "gopher") == .other("gopher"))
    }
}
