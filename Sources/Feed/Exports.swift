// Feed's public API speaks Models' values (`FeedSource`, `Article`, `StoredArticle`,
// `ArticleQuery`, `HouseholdTask`, …): an app that depends on Feed alone names them without a
// second import. Storage, behind Feed, is never re-exported.
@_exported public import Models
