import Foundation
import Models
import Testing

@testable import FeedParser

/// Issue 13: numeric character references read as HTML5 reads them, in XML text as in HTML.
@Suite("Character references in feeds")
struct CharacterReferenceTests {
    @Test("references to code points XML forbids read as U+FFFD; &#128;-&#159; as Windows-1252")
    func forbiddenCharacterReferences() throws {
        let feed = try parseFixture("rss/char-refs-forbidden.xml")
        #expect(feed.title == "Forbidden \u{FFFD} references")
        let first = feed.items[0]
        #expect(
            first.title
                == "Nul \u{FFFD} one \u{FFFD} surrogate \u{FFFD} beyond \u{FFFD} \u{FFFD} not a char \u{FFFD} huge \u{FFFD} end"
        )
        #expect(first.contentHTML == "en – euro € quotes “q” apostrophe ’ unmapped \u{81}")
        let second = feed.items[1]
        #expect(second.title == "Escaped \u{FFFD} nul \u{FFFD} unit – dash “q”")
        #expect(second.contentText == "Escaped \u{FFFD} nul – dash € euro")
        #expect(feed.items[2].title == "After them & all")
        for text in feed.items.flatMap({ [$0.title, $0.contentHTML, $0.contentText] }).compactMap({ $0 }) {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\n" }, "\(text)")
        }
    }
}
