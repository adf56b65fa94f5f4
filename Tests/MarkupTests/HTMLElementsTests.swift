import Testing

@testable import Markup

@Suite("HTML element lists")
struct HTMLElementsTests {
    @Test("a name set holds its names in any case and nothing else, past sixteen bytes included")
    func nameSet() {
        let names = ["p", "div", "h1", "blockquote", "figcaption", "a-very-long-custom-element"]
        let set = PackedNameSet(names)
        for name in names {
            #expect(set.contains(PackedName(name)), "\(name)")
            #expect(set.contains(PackedName(name.uppercased())), "\(name)")
        }
        for name in ["", "b", "span", "h2", "blockquot", "blockquotes", "a-very-long-custom-elements", "pp"] {
            #expect(!set.contains(PackedName(name)), "\(name)")
        }
    }

    @Test("block, void and raw-text elements")
    func lists() {
        #expect(["p", "li", "tr", "aside", "nav", "H3"].allSatisfy { HTMLElements.block.contains(PackedName($0)) })
        #expect(!["br", "b", "span", "td", "a"].contains { HTMLElements.block.contains(PackedName($0)) })
        #expect(["br", "IMG", "hr", "wbr"].allSatisfy { HTMLElements.void.contains(PackedName($0)) })
        #expect(!["p", "script", "brr"].contains { HTMLElements.void.contains(PackedName($0)) })
        #expect(["script", "style", "textarea", "title"].allSatisfy { HTMLElements.rawText.contains(PackedName($0)) })
        "img".withCString { name in
            name.withMemoryRebound(to: UInt8.self, capacity: 4) { #expect(MarkupEscaping.isVoidElement($0)) }
        }
        "imgs".withCString { name in
            name.withMemoryRebound(to: UInt8.self, capacity: 5) { #expect(!MarkupEscaping.isVoidElement($0)) }
        }
    }
}
