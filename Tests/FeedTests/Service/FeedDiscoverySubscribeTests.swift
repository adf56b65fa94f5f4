import Foundation
import Testing

@testable import Feed

/// Subscribing through a discovered feed link: what discovery may lead the service to fetch.
@Suite("Feed discovery when subscribing")
struct FeedDiscoverySubscribeTests {
    @Test("feed add of a web page that links to a local file does not read or subscribe to that file")
    func subscribeNeverFollowsAFileLinkFromTheWeb() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = directory.appendingPathComponent("notes.xml")
        try rss(title: "Private notes", count: 3).write(to: notes)
        try await withTemporaryDatabase { database in
            let server = FakeFeedServer()
            let page = "https://site.example/"
            server.serve(
                page,
                body: Data(
                    """
                    <html><head><link rel="alternate" type="application/rss+xml" href="\(notes.absoluteString)">
                    </head><body></body></html>
                    """.utf8),
                headers: ["Content-Type": "text/html"])
            server.serveNotFound(["feed", "rss", "atom.xml", "feed.json", "index.xml"].map { page + $0 })
            let service = makeService(database, server)
            let pageURL = try #require(URL(string: page))
            await #expect(throws: FeedError.noFeedFound(pageURL, links: [])) {
                try await service.subscribe(url: pageURL)
            }
            let subscriptions = try await service.subscriptions()
            #expect(subscriptions.isEmpty)
        }
    }
}
