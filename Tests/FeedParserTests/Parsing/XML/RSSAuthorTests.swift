import Foundation
import Models
import Testing

@testable import FeedParser

/// Only an address is an address: RSS `author`, `managingEditor` and `dc:creator` are split
/// into a name and an e-mail only around a real one.
@Suite("RSS authors: only an address is an address")
struct RSSAuthorTests {
    @Test("an escaped HTML author is a name, shown as its text, with no e-mail")
    func escapedHTMLAuthor() throws {
        let feed = try parseDocument(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
            <managingEditor>&lt;b&gt;The Editor&lt;/b&gt;</managingEditor>
            <item><guid>1</guid><author>&lt;p&gt;Item Author&lt;/p&gt;</author></item>
            <item><guid>2</guid><dc:creator>&lt;p&gt;Creator&lt;/p&gt;</dc:creator></item>
            </channel></rss>
            """)
        #expect(feed.authors == [Author(name: "The Editor")])
        #expect(feed.items.map(\.authors) == [[Author(name: "Item Author")], [Author(name: "Creator")]])
    }

    @Test(
        "text in <> or () that is no address stays part of the name",
        arguments: [
            ("Jo <Editor>", Author(name: "Jo <Editor>")),
            ("<p>Jo</p>", Author(name: "Jo")),
            ("Jo <jo at example dot com>", Author(name: "Jo <jo at example dot com>")),
            ("Jo <@>", Author(name: "Jo <@>")),
            ("Jo <a@b@c>", Author(name: "Jo <a@b@c>")),
            ("Jo (jo@)", Author(name: "Jo (jo@)")),
            ("@handle", Author(name: "@handle")),
            ("Jo <mailto:jo@example.com>", Author(name: "Jo", email: "jo@example.com")),
            ("<jo@example.com>", Author(email: "jo@example.com")),
            ("Jo Smith <jo@example.com>", Author(name: "Jo Smith", email: "jo@example.com")),
        ])
    func notAnAddress(text: String, expected: Author) {
        #expect(RSSAuthor.parse(text) == expected)
    }
}
