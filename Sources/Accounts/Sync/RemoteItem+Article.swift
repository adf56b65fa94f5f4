import Foundation
internal import FeedParser
import Models

extension RemoteItem {
    /// The identity of an account's article: the server's item id, which never changes and
    /// names the item in every mark sent back.
    public var uniqueID: String { "\(RemoteItem.uniqueIDPrefix)\(id)" }

    /// What `uniqueID` puts before the server's id.
    public static let uniqueIDPrefix = "account-item:"

    /// The server's item id in an account article's `uniqueID`; `nil` for any other article.
    public static func remoteID(inUniqueID uniqueID: String) -> String? {
        uniqueID.hasPrefix(uniqueIDPrefix) ? String(uniqueID.dropFirst(uniqueIDPrefix.count)) : nil
    }

    /// The article this item becomes in the local feed `feedID`: its title as plain text
    /// (servers send titles with HTML entities, some with markup), its content as the HTML it
    /// is and as text, its author and link. Everything in it is still untrusted: the output
    /// boundary that guards feeds guards it too.
    public func article(feedID: Int64) -> Article {
        let title = HTMLText.plainText(title)
        let author = HTMLText.plainText(author)
        let text = HTMLText.plainText(html)
        return Article(
            feedID: feedID, uniqueID: uniqueID, externalID: id, title: title.isEmpty ? nil : title, link: url,
            published: published, authors: author.isEmpty ? [] : [Author(name: author)],
            contentHTML: html.isEmpty ? nil : html, contentText: text.isEmpty ? nil : text)
    }
}
