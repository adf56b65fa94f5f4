@_exported public import FeedParser
// Feed's public API speaks Models' values (`FeedSource`, `Article`, `StoredArticle`,
// `ArticleQuery`, …) and the parser's (`ParsedFeed`, `FeedParseError`, `DiscoveredFeed`,
// `OPML`): an app that depends on Feed alone names them without a second import. Storage, behind
// the store, is never re-exported.
@_exported public import Models
