import Foundation
import Testing

@testable import Markup

@Suite("HTML named references")
struct HTMLEntitiesTests {
    /// Every record's name, read back from the table the search runs over.
    static let names: [String] = (0..<HTMLEntities.count).map { index in
        let record = UnsafeBufferPointer(start: HTMLEntities.records.utf8Start + index * 45, count: 32)
        return String(decoding: record.prefix { $0 != UInt8(ascii: ".") }, as: UTF8.self)
    }

    @Test("the table is sorted, so every one of its names is found, and a name it lacks is not")
    func everyNameFound() {
        #expect(Self.names.count == 2125)
        #expect(Self.names == Self.names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        let missing = Self.names.filter { HTMLEntities.value(named: $0) == nil }
        #expect(missing.isEmpty)
        for absent in ["", "bogus", "AEli", "AEligx", "zwnjx", "a", "ZZZZ", String(repeating: "a", count: 40)] {
            #expect(HTMLEntities.value(named: absent) == nil, "\(absent)")
        }
    }

    @Test("the first, the last, a prefix of another, and the ones that stand for two code points")
    func values() {
        #expect(HTMLEntities.value(named: "AElig") == "Æ")
        #expect(HTMLEntities.value(named: "zwnj") == "\u{200C}")
        #expect(HTMLEntities.value(named: "not") == "¬")
        #expect(HTMLEntities.value(named: "notin") == "∉")
        #expect(HTMLEntities.value(named: "CounterClockwiseContourIntegral") == "∳")
        #expect(HTMLEntities.value(named: "NotEqualTilde") == "\u{2242}\u{338}")
        #expect(HTMLEntities.value(named: "fjlig") == "fj")
        #expect(HTMLEntities.value(named: "nbsp") == "\u{A0}")
    }
}
