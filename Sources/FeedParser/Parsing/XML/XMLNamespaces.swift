/// The namespace URIs the XML feed parser understands.
enum XMLNamespace {
    static let atom10 = "http://www.w3.org/2005/Atom"
    static let atom03 = "http://purl.org/atom/ns#"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let rss10 = "http://purl.org/rss/1.0/"
    static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let dublinCoreTerms = "http://purl.org/dc/terms/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let syndication = "http://purl.org/rss/1.0/modules/syndication/"
    static let media = "http://search.yahoo.com/mrss/"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    /// The spelling of the iTunes namespace in Apple's own early examples, still in use.
    static let itunesCapitalized = "http://www.itunes.com/DTDs/Podcast-1.0.dtd"
    /// Media RSS without its trailing slash, as some publishers write it.
    static let mediaWithoutSlash = "http://search.yahoo.com/mrss"
    static let xml = "http://www.w3.org/XML/1998/namespace"
}
