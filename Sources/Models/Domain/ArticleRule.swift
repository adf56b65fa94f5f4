/// A rule for new articles (newsboat's killfile): what it looks at, what it looks for, and
/// what it does to an article that matches: mark it read, or hide it (the article is deleted,
/// and does not come back while its feed lists it). A starred article is never hidden.
public struct ArticleRule: Sendable, Hashable, Identifiable {
    /// What a rule looks at.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case title
        /// Its authors' names and addresses.
        case author
        /// Its feed's title.
        case feed
        /// Its feed's tags.
        case tag
        case link
        /// Its text: the summary and the content, as plain text.
        case text
        /// The title or the text.
        case any
    }

    public enum Action: String, Sendable, Hashable, CaseIterable {
        case read
        case hide
    }

    public var id: Int64?
    public var field: Field
    /// Words that must all occur (case and accents ignored), a phrase in double quotes counting
    /// as one word; or, when `isRegex`, a regular expression (case ignored).
    public var pattern: String
    public var isRegex: Bool
    public var action: Action
    /// How many articles it has caught at refreshes.
    public var caught: Int

    public init(
        id: Int64? = nil, field: Field, pattern: String, isRegex: Bool = false, action: Action, caught: Int = 0
    ) {
        self.id = id
        self.field = field
        self.pattern = pattern
        self.isRegex = isRegex
        self.action = action
        self.caught = caught
    }
}

/// What rules look at in one article.
public struct ArticleFacts: Sendable, Hashable {
    public var id: Int64
    public var title: String
    public var authors: String
    public var feedTitle: String
    public var tags: [String]
    public var link: String
    /// The summary and the content, as HTML or text as stored.
    public var text: String
    public var isStarred: Bool

    public init(
        id: Int64, title: String, authors: String, feedTitle: String, tags: [String], link: String, text: String,
        isStarred: Bool
    ) {
        self.id = id
        self.title = title
        self.authors = authors
        self.feedTitle = feedTitle
        self.tags = tags
        self.link = link
        self.text = text
        self.isStarred = isStarred
    }
}
