import Foundation
import Models
import Testing

@testable import Accounts

/// How a server's item becomes a local article.
@Suite("Remote items as articles")
struct RemoteItemArticleTests {
    @Test("titles and authors as plain text, content as HTML and as text, the server's id as identity")
    func conversion() throws {
        let item = RemoteItem(
            id: "4711", feedID: "3", title: "Tom &amp; Jerry <b>again</b>", author: "Ann &lt;ann@example.org&gt;",
            html: "<p>One &amp; <a href=\"https://a.example/\">two</a></p><script>alert(1)</script>",
            url: URL(string: "https://a.example/4711"), published: Date(timeIntervalSince1970: 1_790_000_000))
        let article = item.article(feedID: 9)
        #expect(article.feedID == 9)
        #expect(article.title == "Tom & Jerry again")
        #expect(article.authors == [Author(name: "Ann <ann@example.org>")])
        #expect(article.contentHTML == item.html)
        #expect(article.contentText?.contains("One & two") == true)
        #expect(article.contentText?.contains("alert") == false)
        #expect(article.link == URL(string: "https://a.example/4711"))
        #expect(article.published == item.published)
        #expect(article.externalID == "4711")
        #expect(RemoteItem.remoteID(inUniqueID: article.uniqueID) == "4711")
        #expect(RemoteItem.remoteID(inUniqueID: "https://a.example/4711") == nil)

        let empty = RemoteItem(id: "1", feedID: "3", title: "", author: " ", html: "", url: nil, published: nil)
            .article(feedID: 9)
        #expect(empty.title == nil)
        #expect(empty.authors == [])
        #expect(empty.contentHTML == nil)
        #expect(empty.contentText == nil)
    }
}
