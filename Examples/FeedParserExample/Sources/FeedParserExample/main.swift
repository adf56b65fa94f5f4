import FeedParser
import Foundation

// Parses an RSS document and an OPML list held in memory, with the feed parser alone: no
// database, no network. FeedParser re-exports the Models values it returns (dates, authors).

let rss = """
    <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
      <title>Kitchen radio</title><link>https://example.com/</link>
      <item><title>Sourdough, part 1</title><guid>1</guid><link>/episodes/1</link>
        <description>&lt;p&gt;Flour, water &amp;amp; &lt;b&gt;time&lt;/b&gt;.&lt;/p&gt;</description>
        <itunes:duration>42:05</itunes:duration>
        <pubDate>Mon, 02 Nov 2026 08:00:00 GMT</pubDate></item>
    </channel></rss>
    """
let feed = try FeedDocumentParser.parse(data: Data(rss.utf8), url: URL(string: "https://example.com/feed.xml"))
print("\(feed.format.rawValue): \(feed.title ?? "(untitled)")")
for item in feed.items {
    let minutes = item.duration.map { " (\($0 / 60) min)" } ?? ""
    print("- \(item.title ?? "(untitled)")\(minutes): \(item.link?.absoluteString ?? "")")
    print("  \(item.contentText ?? "")")
}

let opml = """
    <opml version="2.0"><body>
      <outline text="Kitchen radio" xmlUrl="https://example.com/feed.xml"/>
      <outline text="Garden" xmlUrl="https://garden.example/rss"/>
    </body></opml>
    """
for subscription in try OPML.subscriptions(in: Data(opml.utf8)) {
    print("subscribes to \(subscription.title ?? "?"): \(subscription.feedURL.absoluteString)")
}
