import Foundation
import Models
import Storage
import Store
import Testing

@testable import Accounts
@testable import DefaultTransport

/// The sync into real SQLite files: two homes share one Coldsweat account, the user's marks in
/// each made as any command makes them (through the articles' repository).
@Suite("Feed accounts in two homes", .serialized)
struct LocalAccountStoreTests {
    /// A home: its store in a file of its own, and the account added to it.
    struct Home {
        let store: LocalStore
        let account: Int64
        let sync: FeverSync

        init(directory: URL, name: String, server: ColdsweatServer) async throws {
            store = try LocalStore.open(path: directory.appendingPathComponent("\(name).sqlite").path)
            account = try await store.accounts.add(kind: "fever", endpoint: server.endpoint, user: server.credentials.user).id
            sync = FeverSync(
                client: try FeverClient(
                    endpoint: server.endpoint, credentials: server.credentials, transport: makeDefaultTransport()),
                store: LocalAccountStore(store: store, accountID: account))
        }

        /// The article ids by title, and the titles of the unread and the starred.
        func articles() async throws -> (ids: [String: Int64], unread: Set<String>, starred: Set<String>) {
            let page = try await store.articles.articles(matching: ArticleQuery(), limit: 1_000)
            let ids = Dictionary(page.map { ($0.article.title ?? "", $0.article.id ?? -1) }, uniquingKeysWith: { a, _ in a })
            return (
                ids, Set(page.filter { !$0.status.isRead }.map { $0.article.title ?? "" }),
                Set(page.filter { $0.status.isStarred }.map { $0.article.title ?? "" })
            )
        }
    }

    @Test("after each syncs, both homes and the server agree on unread and starred, through offline marks on both")
    func twoHomes() async throws {
        let feeds = try FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-fever-homes-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: feeds) }
        for (name, count) in [("alpha", 4), ("beta", 3)] {
            try Data(ColdsweatTests.rss(name, items: count).utf8).write(to: feeds.appendingPathComponent("\(name).rss"))
        }
        try await withFeedServer(serving: feeds) { base in
            let urls = ["alpha", "beta"].map { base.appendingPathComponent("\($0).rss") }
            try await withColdsweat(feeds: urls) { server in
                let (kitchen, study) = (
                    try await Home(directory: feeds, name: "kitchen", server: server),
                    try await Home(directory: feeds, name: "study", server: server)
                )
                let first = try await kitchen.sync.sync()
                #expect(first.newItems == 7)
                _ = try await study.sync.sync()
                let all: Set<String> = ["alpha 1", "alpha 2", "alpha 3", "alpha 4", "beta 1", "beta 2", "beta 3"]
                #expect(try await kitchen.articles().unread == all)
                #expect(try await study.articles().unread == all)
                // The account's feeds are feeds like the others, in folders as the server has them.
                #expect(try await kitchen.store.feeds.all().count == 2)

                // Offline in the kitchen: read alpha 1, star beta 1. In the study: read alpha 2 and
                // alpha 1 too, star and unstar alpha 3 (no change), mark beta read.
                let k = try await kitchen.articles().ids
                try await kitchen.store.articles.setRead(true, ids: [k["alpha 1"]!])
                try await kitchen.store.articles.setStarred(true, ids: [k["beta 1"]!])
                let s = try await study.articles().ids
                try await study.store.articles.setRead(true, ids: [s["alpha 2"]!, s["alpha 1"]!])
                try await study.store.articles.setStarred(true, ids: [s["alpha 3"]!])
                try await study.store.articles.setStarred(false, ids: [s["alpha 3"]!])
                let beta = try #require(try await study.store.feeds.all().first { $0.url.lastPathComponent == "beta.rss" })
                try await study.store.accounts.markFeedRead(beta.id!, before: Date().addingTimeInterval(60))

                _ = try await kitchen.sync.sync()
                let studySync = try await study.sync.sync()
                #expect(studySync.marksSent == 3)  // alpha 2, alpha 1, beta read; the star undone is not sent
                _ = try await kitchen.sync.sync()

                let unread: Set<String> = ["alpha 3", "alpha 4"]
                #expect(try await kitchen.articles().unread == unread)
                #expect(try await study.articles().unread == unread)
                #expect(try await kitchen.articles().starred == ["beta 1"])
                #expect(try await study.articles().starred == ["beta 1"])
                #expect(try await kitchen.store.accounts.pendingMarks(account: kitchen.account).isEmpty)
                #expect(try await study.store.accounts.pendingMarks(account: study.account).isEmpty)

                // Applying the server's states sent nothing back: the next syncs send no marks.
                #expect(try await kitchen.sync.sync().marksSent == 0)
                #expect(try await study.sync.sync().marksSent == 0)
            }
        }
    }
}
