package import Foundation
import Markup
import Models

/// The rule that gives every article a stable identity within its feed.
///
/// **Never change this rule casually:** every stored article is keyed by the id it produced,
/// so a different id for the same entry duplicates every user's articles on the next refresh.
///
/// The feed's own guid or id wins when present. Otherwise the id is the SHA-256 (hex) of the
/// first available of: permalink + date, link + date, title + date, date, permalink, link,
/// title, body. Dates enter as RFC 3339 UTC text, so the id is the same on every machine.
package enum ArticleIdentity {
    /// The unique id for an entry with these fields; never empty.
    package static func uniqueID(
        id: String?, permalink: URL?, link: URL?, title: String?, date: Date?, body: String?
    ) -> String {
        if let id = id?.trimmedWhitespace, !id.isEmpty { return id }
        let dateText = date.map(RFC3339.string(from:))
        let permalinkText = permalink?.absoluteString
        let linkText = link?.absoluteString
        let candidates: [String?] = [
            join(permalinkText, dateText), join(linkText, dateText), join(title, dateText), dateText,
            permalinkText, linkText, title, body,
        ]
        let source = candidates.lazy.compactMap { $0 }.first { !$0.isEmpty } ?? ""
        return SHA256.hex(of: Data(source.utf8))
    }

    private static func join(_ first: String?, _ second: String?) -> String? {
        guard let first, !first.isEmpty, let second else { return nil }
        return first + second
    }
}
