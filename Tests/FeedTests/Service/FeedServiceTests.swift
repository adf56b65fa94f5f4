import Foundation
import Models
import Networking
import Storage
import Testing

@testable import Feed

@Suite("FeedService: subscribing")
struct FeedServiceSubscribeTests {
    @Test("subscribe fetches, parses and stores the feed and its items; a second subscribe is reported, not duplicated")
    func subscribeStoresFeedAndArticles() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://example.com/feed.xml", body: rss(title: "Example", count: 5), etag: "\"a\"")
            let service = makeService(database, server)
            let summary = try await service.subscribe(url: #require(URL(string: "https://example.com/feed.xml")))
            #expect(summary.feed.title == "Example")
            #expect(summary.itemCount == 5 && summary.newCount == 5)
            #expect(summary.feed.etag == "\"a\"" && summary.feed.lastResult == .ok)
            let stored = try await service.articles(matching: ArticleQuery(feedID: summary.feed.id), limit: 50)
            #expect(stored.count == 5)

            await #expect(throws: FeedError.alreadySubscribed(id: summary.feed.id ?? 0, title: "Example")) {
                try await service.subscribe(url: #require(URL(string: "https://example.com/feed.xml")))
            }
            #expect(try await service.subscriptions().count == 1)
        }
    }

    @Test("subscribing to an HTML page follows its <link rel=alternate> to the feed")
    func subscribeDiscoversFeedInHTML() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let page = """
                <html><head><link rel="alternate" type="application/rss+xml" href="/news.rss"></head></html>
                """
            server.serve("https://site.test/", body: Data(page.utf8), headers: ["Content-Type": "text/html"])
            server.serve("https://site.test/news.rss", body: rss(title: "Site news", count: 2))
            let service = makeService(database, server)
            let summary = try await service.subscribe(url: #require(URL(string: "https://site.test/")), title: "Mine")
            #expect(summary.feed.url.absoluteString == "https://site.test/news.rss")
            #expect(summary.feed.title == "Mine")
            #expect(
                try await service.discover(url: #require(URL(string: "https://site.test/"))).map(\.url.absoluteString)
                    == ["https://site.test/news.rss"])
        }
    }

    @Test("an HTML page that links to no feed falls back to the common paths, then says no feed was found")
    func subscribeFallsBackToCommonPaths() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            server.serve("https://a.test/", body: Data("<html><body>hi</body></html>".utf8))
            server.serve("https://a.test/atom.xml", body: rss(title: "Found", count: 1))
            server.serve("https://b.test/", body: Data("<!doctype html><html></html>".utf8))
            server.serveNotFound(["https://a.test/feed", "https://a.test/rss"])
            server.serveNotFound(["feed", "rss", "atom.xml", "feed.json", "index.xml"].map { "https://b.test/\($0)" })
            server.serveNotFound(
                ["dead.xml", "feed", "rss", "atom.xml", "feed.json", "index.xml"].map { "https://c.test/\($0)" })
            let service = makeService(database, server)
            let found = try await service.subscribe(url: #require(URL(string: "https://a.test/")))
            #expect(found.feed.url.absoluteString == "https://a.test/atom.xml")
            await #expect(throws: FeedError.noFeedFound(try #require(URL(string: "https://b.test/")))) {
                try await service.subscribe(url: #require(URL(string: "https://b.test/")))
            }
            // A page whose feed link is dead says so, naming the link.
            server.serve(
                "https://c.test/",
                body: Data(
                    #"<html><head><link rel="alternate" type="application/rss+xml" href="/dead.xml"></head></html>"#
                        .utf8))
            let dead = try #require(URL(string: "https://c.test/dead.xml"))
            let page = try #require(URL(string: "https://c.test/"))
            await #expect(throws: FeedError.noFeedFound(page, links: [dead])) { try await service.subscribe(url: page) }
            #expect(
                FeedError.noFeedFound(page, links: [dead]).errorDescription
                    == "no feed found at https://c.test/: the page links to https://c.test/dead.xml, which could not be read as a feed"
            )
        }
    }

    @Test("typed text becomes a URL: http(s) and file URLs as given, anything else a local path")
    func urlFromText() throws {
        #expect(try FeedService.url(from: "https://x.test/feed").absoluteString == "https://x.test/feed")
        #expect(try FeedService.url(from: "/tmp/a feed.xml").path == "/tmp/a feed.xml")
        #expect(try FeedService.url(from: "/tmp/a.xml").isFileURL)
        #expect(throws: FeedError.invalidURL("ftp://x.test/f")) { try FeedService.url(from: "ftp://x.test/f") }
        #expect(throws: FeedError.invalidURL("(empty)")) { try FeedService.url(from: "  ") }
        // Spaces and tabs around it are dropped (no-break and ideographic spaces too).
        #expect(try FeedService.url(from: " \t\u{A0}https://x.test/f\u{3000} ").absoluteString == "https://x.test/f")
        #expect(try FeedService.url(from: "\t/tmp/a.xml  ").path == "/tmp/a.xml")
        #expect(throws: FeedError.invalidURL("(empty)")) { try FeedService.url(from: "\u{2003}\t") }
        // One spelling per file.
        #expect(try FeedService.url(from: "file://localhost/tmp/a/../b.xml").absoluteString == "file:///tmp/b.xml")
        #expect(try FeedService.url(from: "/tmp/a/../b.xml").absoluteString == "file:///tmp/b.xml")
        // And per web address: scheme and host in lower case, the path and query as typed.
        #expect(
            try FeedService.url(from: "HTTP://News.Example.COM:8080/Feed.xml?Q=1").absoluteString
                == "http://news.example.com:8080/Feed.xml?Q=1")
    }

    @Test("a local file can be subscribed; a missing one is a clear error")
    func subscribeToFile() async throws {
        try await withTemporaryDatabase { database in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-\(UUID().uuidString).xml")
            try rss(title: "Local", count: 3).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let service = makeService(database, FakeFeedServer())
            #expect(try await service.subscribe(url: file).itemCount == 3)
            let missing = file.appendingPathExtension("missing")
            await #expect(throws: FeedError.file("cannot read \(missing.path): no such file")) {
                try await service.subscribe(url: missing)
            }
        }
    }
}

@Suite("FeedService: operations")
struct FeedServiceOperationTests {
    @Test("rename, mark read/unread/star, mark all read, article to task, unsubscribe")
    func operations() async throws {
        try await withTemporaryDatabase { database in
            let served = try await subscribedService(database, [("https://example.com/feed.xml", "Example", 3)])
            let service = served.service
            let feeds = served.feeds
            let feed = feeds[0]
            let feedID = try #require(feed.id)
            try await service.rename(id: feedID, to: "  Renamed ")
            #expect(try await service.subscription(id: feedID).title == "Renamed")
            await #expect(throws: FeedError.notFound(entity: "feed", id: 99)) {
                try await service.rename(id: 99, to: "x")
            }

            let ids = try await service.articles(matching: ArticleQuery(feedID: feedID)).map(\.id)
            try await service.mark([ids[0]], .read)
            try await service.mark([ids[1]], .star)
            #expect(try await service.article(id: ids[0]).status.isRead)
            #expect(try await service.article(id: ids[1]).status.isStarred)
            try await service.mark([ids[0]], .unread)
            #expect(try await !service.article(id: ids[0]).status.isRead)
            await #expect(throws: FeedError.notFound(entity: "item", id: 999)) {
                try await service.mark([ids[2], 999], .read)
            }
            #expect(try await !service.article(id: ids[2]).status.isRead)  // nothing changed
            #expect(try await service.markAllRead(feedID: feedID) == 3)
            #expect(try await service.articles(matching: ArticleQuery(unreadOnly: true)).isEmpty)

            try await service.unsubscribe(id: feedID)
            #expect(try await service.subscriptions().isEmpty)
            await #expect(throws: FeedError.notFound(entity: "item", id: ids[0])) {
                try await service.article(id: ids[0])
            }
        }
    }

    @Test("OPML import subscribes without fetching and counts what was present; export round-trips")
    func opmlImportAndExport() async throws {
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let service = makeService(database, server)
            let opml = """
                <?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>
                <outline text="Tech"><outline type="rss" text="A" xmlUrl="https://a.test/feed"/>
                <outline type="rss" title="B" xmlUrl="https://b.test/feed"/></outline>
                <outline type="rss" text="A again" xmlUrl="https://a.test/feed"/>
                <outline type="rss" text="FTP" xmlUrl="ftp://c.test/feed"/>
                <outline type="rss" text="Relative" xmlUrl="feeds/d.xml"/>
                <outline type="rss" text="Local" xmlUrl="file:///etc/shadow"/>
                <outline type="rss" text="Local" xmlUrl="FILE:/root/.bashrc"/></body></opml>
                """
            let summary = try await service.importOPML(Data(opml.utf8))
            // The repeated URL counts once; a URL that is not http or https (a list from
            // elsewhere must not make a refresh read local files), or not absolute, is skipped
            // and named.
            let skipped = ["ftp://c.test/feed", "feeds/d.xml", "file:///etc/shadow", "FILE:/root/.bashrc"]
            #expect(summary == ImportSummary(imported: 2, alreadyPresent: 0, skipped: skipped))
            #expect(
                try await service.importOPML(Data(opml.utf8))
                    == ImportSummary(imported: 0, alreadyPresent: 2, skipped: skipped))
            #expect(server.requests.isEmpty)
            let exported = try await service.exportOPML()
            let back = try OPML.subscriptions(in: exported)
            #expect(back.map(\.feedURL.absoluteString) == ["https://a.test/feed", "https://b.test/feed"])
            #expect(back.map(\.title) == ["A", "B"])
            // A file that is not a subscription list says so, in words about OPML, not feeds.
            for (text, message) in [
                (
                    "root:x:0:0:root:/root:/bin/bash\n",
                    "not an OPML subscription list: the XML is not well formed (Document is empty at line 1)"
                ),
                (
                    "<feed xmlns=\"http://www.w3.org/2005/Atom\"/>",
                    "not an OPML subscription list: an XML document whose root is <feed>, not <opml>"
                ),
            ] {
                do {
                    _ = try await service.importOPML(Data(text.utf8))
                    Issue.record("\(text) was imported")
                } catch {
                    #expect((error as? FeedError)?.errorDescription == message)
                }
            }
        }
    }
}
