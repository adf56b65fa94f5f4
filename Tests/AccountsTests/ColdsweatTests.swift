import Foundation
import Networking
import Testing

@testable import Accounts
@testable import DefaultTransport

/// The Fever client against a real Fever server: Coldsweat on 127.0.0.1, which fetched real
/// feeds from a loopback file server, through the platform's real transport.
@Suite("Fever client against Coldsweat", .serialized)
struct ColdsweatTests {
    /// An RSS document of `count` items, `name-1` … `name-count`, a minute apart.
    static func rss(_ name: String, items count: Int) -> String {
        let items = (1...max(1, count)).map { index in
            let date = Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 60)
            return """
                <item><title>\(name) \(index)</title><link>https://\(name).example/\(index)</link>\
                <guid>https://\(name).example/\(index)</guid><description>&lt;p&gt;Item \(index) of \(name)&lt;/p&gt;</description>\
                <pubDate>\(RFC822.format(date))</pubDate></item>
                """
        }
        return """
            <?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>\(name)</title>\
            <link>https://\(name).example/</link><description>\(name)</description>\(items.joined())</channel></rss>
            """
    }

    /// Runs `body` with a Coldsweat subscribed to feeds named as `feeds` says, each of so many
    /// items, and a client of it.
    func withAccount<T>(
        _ feeds: [(name: String, items: Int)], _ body: (ColdsweatServer, FeverClient) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-fever-feeds-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for feed in feeds {
            try Data(Self.rss(feed.name, items: feed.items).utf8).write(
                to: directory.appendingPathComponent("\(feed.name).rss", isDirectory: false))
        }
        return try await withFeedServer(serving: directory) { base in
            let urls = feeds.map { base.appendingPathComponent("\($0.name).rss", isDirectory: false) }
            return try await withColdsweat(feeds: urls) { server in
                let client = try FeverClient(
                    endpoint: server.endpoint, credentials: server.credentials, transport: makeDefaultTransport())
                return try await body(server, client)
            }
        }
    }

    @Test("the server's feeds, items, and read and saved marks, as a second client would see them")
    func roundTrip() async throws {
        try await withAccount([("alpha", 3), ("beta", 2)]) { server, client in
            #expect(try await client.verify() == 3)
            let (feeds, _) = try await client.feeds()
            #expect(Set(feeds.compactMap { $0.url?.lastPathComponent }) == ["alpha.rss", "beta.rss"])
            let page = try await client.items(after: 0)
            #expect(page.items.count == 5)
            #expect(Set(page.items.map(\.title)) == ["alpha 1", "alpha 2", "alpha 3", "beta 1", "beta 2"])
            let alpha = try #require(feeds.first { $0.url?.lastPathComponent == "alpha.rss" })
            #expect(page.items.filter { $0.feedID == alpha.id }.count == 3)
            #expect(page.items.allSatisfy { !$0.isRead && !$0.isSaved })
            let ids = Set(page.items.map(\.id))
            #expect(try await client.unreadItemIDs() == ids)
            #expect(try await client.savedItemIDs() == [])

            let first = try #require(page.items.first { $0.title == "beta 1" })
            try await client.mark(item: first.id, .read)
            try await client.mark(item: first.id, .saved)
            // Another client of the same account sees the marks.
            let other = try FeverClient(
                endpoint: server.endpoint, credentials: server.credentials, transport: makeDefaultTransport())
            #expect(try await other.unreadItemIDs() == ids.subtracting([first.id]))
            #expect(try await other.savedItemIDs() == [first.id])
            let again = try await other.items(ids: [first.id])
            #expect(again.map(\.isRead) == [true])
            #expect(again.map(\.isSaved) == [true])

            try await client.mark(item: first.id, .unread)
            try await client.mark(item: first.id, .unsaved)
            #expect(try await other.unreadItemIDs() == ids)
            #expect(try await other.savedItemIDs() == [])

            try await client.markFeedRead(alpha.id, before: Date().addingTimeInterval(60))
            let alphaIDs = Set(page.items.filter { $0.feedID == alpha.id }.map(\.id))
            #expect(try await other.unreadItemIDs() == ids.subtracting(alphaIDs))
        }
    }

    @Test("two homes sharing the account agree on unread and starred items after each syncs, through offline marks on both")
    func twoHomes() async throws {
        try await withAccount([("alpha", 30), ("beta", 60)]) { server, client in
            let (home, laptop) = (MemoryAccountStore(), MemoryAccountStore())
            let other = try FeverClient(
                endpoint: server.endpoint, credentials: server.credentials, transport: makeDefaultTransport())
            let first = try await FeverSync(client: client, store: home).sync()
            #expect(first.newItems == 90)
            #expect(first.feedsAdded == 2)
            _ = try await FeverSync(client: other, store: laptop).sync()
            #expect(await home.unread.count == 90)
            #expect(await laptop.unread == home.unread)

            // Offline on both: each reads and stars its own, and one item both ways.
            let ids = await home.items.values.sorted { Int($0.remote.id)! < Int($1.remote.id)! }.map(\.remote.id)
            await home.markRead(ids[0])
            await home.star(ids[1])
            await home.markRead(ids[2])
            await laptop.markRead(ids[2])  // read on both sides
            await laptop.star(ids[3])
            await laptop.markRead(ids[4])
            await laptop.markRead(ids[4], false)  // undone: no change
            let beta = try #require(await home.feeds.values.first { $0.url?.lastPathComponent == "beta.rss" })
            await laptop.markFeedRead(beta.id, before: Date().addingTimeInterval(60))

            _ = try await FeverSync(client: client, store: home).sync()
            _ = try await FeverSync(client: other, store: laptop).sync()
            _ = try await FeverSync(client: client, store: home).sync()
            let betaItems = Set(await home.items.values.filter { $0.remote.feedID == beta.id }.map(\.remote.id))
            let expectedUnread = Set(ids).subtracting([ids[0], ids[2]]).subtracting(betaItems)
            #expect(await home.unread == expectedUnread)
            #expect(await laptop.unread == expectedUnread)
            #expect(await home.starred == [ids[1], ids[3]])
            #expect(await laptop.starred == [ids[1], ids[3]])
            #expect(try await client.unreadItemIDs() == Set(expectedUnread.compactMap(Int64.init)))
            #expect(await home.marks.isEmpty)
            #expect(await laptop.marks.isEmpty)

            // A star cleared on one side since the last sync wins over no change on the other.
            await laptop.star(ids[1], false)
            _ = try await FeverSync(client: other, store: laptop).sync()
            _ = try await FeverSync(client: client, store: home).sync()
            #expect(await home.starred == [ids[3]])
        }
    }

    @Test("items come 50 a page, and paging by since_id reads each once")
    func paging() async throws {
        try await withAccount([("many", 120)]) { _, client in
            var seen: [Int64] = []
            var pages: [Int] = []
            var after: Int64 = 0
            while true {
                let page = try await client.items(after: after)
                if page.items.isEmpty { break }
                pages.append(page.items.count)
                seen += page.items.map(\.id)
                after = page.items.map(\.id).max() ?? after
            }
            #expect(pages == [50, 50, 20])
            #expect(Set(seen).count == 120)
            #expect(seen.count == 120)
        }
    }

    @Test("a wrong password is refused as such")
    func wrongPassword() async throws {
        try await withAccount([("alpha", 1)]) { server, _ in
            let wrong = try FeverClient(
                endpoint: server.endpoint,
                credentials: FeverCredentials(user: server.credentials.user, password: "not the password"),
                transport: makeDefaultTransport())
            await #expect(throws: FeverError.unauthorized) { try await wrong.verify() }
            // The site's HTML front page is not the API.
            let page = try FeverClient(
                endpoint: server.endpoint.deletingLastPathComponent(), credentials: server.credentials,
                transport: makeDefaultTransport())
            await #expect {
                try await page.verify()
            } throws: { error in
                switch error as? FeverError {
                case .notFever, .network(.status): true
                default: false
                }
            }
        }
    }
}

/// RFC 822 dates for the test feeds.
enum RFC822 {
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// A server that does not answer: the request ends at the client's time limit with its reason.
@Suite("Fever client against a silent server")
struct SilentFeverServerTests {
    @Test("a server that does not answer fails the call at the time limit, as a time-out")
    func slowServer() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Support/fever_fake.py").standardizedFileURL
        try await withLoopbackServer(script: script, arguments: ["slow"]) { base in
            let client = try FeverClient(
                endpoint: base.appendingPathComponent("fever/"),
                credentials: FeverCredentials(user: "reader@example.com", password: "secret"),
                transport: makeDefaultTransport(), timeout: 1)
            // The request carries the client's limit, and the server answers only after 30 s: a
            // time-out can come from that limit alone (the default, 60 s, would see the answer).
            // No wall-clock bound: under a loaded test run the call once took 22 s to end.
            #expect(client.request([("groups", nil)]).timeout == 1)
            await #expect(throws: FeverError.network(.timedOut)) { try await client.verify() }
            #expect(FeverError.network(.timedOut).errorDescription == "the server did not answer in time")
        }
    }
}
