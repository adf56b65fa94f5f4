import Foundation
import GRDB
import Models
import Testing

@testable import Storage

/// What the store keeps of feed accounts: the accounts, their feeds and articles, the marks
/// made here, and the server's states applied without being sent back.
@Suite("Feed accounts in the store")
struct AccountRepositoryTests {
    static let endpoint = URL(string: "https://rss.example/api/fever.php")!

    func setUp() async throws -> (AppDatabase, AccountRepository, FeedAccountRecord, [String: Int64]) {
        let database = try AppDatabase.inMemory()
        let accounts = AccountRepository(database: database)
        let account = try await accounts.add(kind: "fever", endpoint: Self.endpoint, user: "ann")
        let (ids, _, _) = try await accounts.replaceFeeds(
            [
                AccountFeed(
                    remoteID: "1", url: URL(string: "https://a.example/feed"), title: "A", homePageURL: nil,
                    folders: ["Tech"]),
                AccountFeed(remoteID: "2", url: URL(string: "https://b.example/feed"), title: "B", homePageURL: nil, folders: []),
            ], account: account.id)
        let articles = (1...4).map { index in
            Article(
                feedID: ids[index % 2 == 1 ? "1" : "2"]!, uniqueID: "account-item:\(index)", title: "item \(index)",
                published: Date(timeIntervalSince1970: 1_000))
        }
        _ = try await accounts.storeArticles(articles, cursor: 4, account: account.id)
        return (database, accounts, account, ids)
    }

    func statuses(_ database: AppDatabase) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                db, sql: "SELECT uniqueId || ':' || isRead || isStarred FROM articleStatus ORDER BY uniqueId")
        }
    }

    func articleID(_ database: AppDatabase, _ uniqueID: String) async throws -> Int64 {
        try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM article WHERE uniqueId = ?", arguments: [uniqueID]) ?? -1
        }
    }

    @Test("accounts are added once per user and server, listed, and removed with their feeds and articles")
    func accounts() async throws {
        let (database, accounts, account, _) = try await setUp()
        await #expect(throws: StorageError.duplicate("an account of ann at \(Self.endpoint.absoluteString)")) {
            _ = try await accounts.add(kind: "fever", endpoint: Self.endpoint, user: "ann")
        }
        let other = try await accounts.add(kind: "fever", endpoint: Self.endpoint, user: "bob")
        #expect(try await accounts.all().map(\.user) == ["ann", "bob"])
        #expect(try await accounts.account(id: account.id)?.endpoint == Self.endpoint)
        // A local subscription to a URL an account lists too.
        _ = try await FeedRepository(database: database).addAll([
            FeedSource(url: URL(string: "https://a.example/feed")!, title: "A here")
        ])
        #expect(try await accounts.remove(id: account.id))
        #expect(try await accounts.remove(id: account.id) == false)
        #expect(try await FeedRepository(database: database).all().map(\.title) == ["A here"])
        let left = try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM article") }
        #expect(left == 0)
        #expect(try await accounts.all().map(\.id) == [other.id])
    }

    @Test("feeds are added, updated with their folders, and removed with their articles when the server drops them")
    func feeds() async throws {
        let (database, accounts, account, ids) = try await setUp()
        let tags = try await database.read { db in try String.fetchAll(db, sql: "SELECT tag FROM feedTag") }
        #expect(tags == ["Tech"])
        let (again, added, removed) = try await accounts.replaceFeeds(
            [AccountFeed(remoteID: "1", url: URL(string: "https://a.example/rss"), title: "A!", homePageURL: nil, folders: ["News"])],
            account: account.id)
        #expect(again["1"] == ids["1"])
        #expect((added, removed) == (0, 1))
        #expect(try await FeedRepository(database: database).all().map(\.title) == ["A!"])
        #expect(try await statuses(database) == ["account-item:1:00", "account-item:3:00"])
        #expect(try await database.read { db in try String.fetchAll(db, sql: "SELECT tag FROM feedTag") } == ["News"])
    }

    @Test("articles arrive unread and unstarred whatever their age, once each, and move the cursor")
    func articles() async throws {
        let (_, accounts, account, ids) = try await setUp()
        #expect(try await accounts.itemCursor(account: account.id) == 4)
        let again = Article(
            feedID: ids["1"]!, uniqueID: "account-item:1", title: "item 1, edited",
            published: Date(timeIntervalSince1970: 1_000))
        #expect(try await accounts.storeArticles([again], cursor: 3, account: account.id) == 0)
        #expect(try await accounts.itemCursor(account: account.id) == 4)
        #expect(
            try await accounts.storedArticles(among: ["account-item:1", "account-item:9"], account: account.id)
                == ["account-item:1"])
        // Not into a feed of no account, or another account's.
        let local = try await FeedRepository(database: accounts.database).addAll([
            FeedSource(url: URL(string: "https://local.example/feed")!, title: "L")
        ])
        let stray = Article(feedID: local[0].id!, uniqueID: "x")
        await #expect(throws: StorageError.notFound(entity: "account feed", id: local[0].id!)) {
            _ = try await accounts.storeArticles([stray], cursor: 5, account: account.id)
        }
        #expect(try await accounts.itemCursor(account: account.id) == 4)
    }

    @Test("a change of an account article's status, by any path, is a pending mark; a local article's is not")
    func marks() async throws {
        let (database, accounts, account, _) = try await setUp()
        let articles = ArticleRepository(database: database)
        try await articles.setRead(true, ids: [try await articleID(database, "account-item:1")])
        try await articles.setStarred(true, ids: [try await articleID(database, "account-item:2")])
        try await articles.setRead(true, ids: [try await articleID(database, "account-item:1")])  // no change
        let local = try await FeedRepository(database: database).addAll([
            FeedSource(url: URL(string: "https://local.example/feed")!, title: "L")
        ])
        let localArticle = Article(feedID: local[0].id!, uniqueID: "l1", published: Date())
        _ = try await FeedRepository(database: database).update(local[0], merging: [localArticle])
        try await articles.setRead(true, ids: [try await articleID(database, "l1")])
        let marks = try await accounts.pendingMarks(account: account.id)
        #expect(marks.map(\.kind) == [.read, .starred])
        #expect(marks.map(\.target) == ["account-item:1", "account-item:2"])
        #expect(marks.map(\.now) == [true, true])
        #expect(marks.map(\.was) == [false, false])
        try await accounts.removeMarks([marks[0].sequence], account: account.id)
        #expect(try await accounts.pendingMarks(account: account.id).map(\.target) == ["account-item:2"])
    }

    @Test("marking an account's feed read is one feed mark, not one per article")
    func feedRead() async throws {
        let (database, accounts, account, ids) = try await setUp()
        try await accounts.markFeedRead(ids["1"]!, before: Date(timeIntervalSince1970: 2_000))
        let marks = try await accounts.pendingMarks(account: account.id)
        #expect(marks.map(\.kind) == [.feedRead])
        #expect(marks.first?.target == "1")
        #expect(marks.first?.before == Date(timeIntervalSince1970: 2_000))
        #expect(
            try await statuses(database) == [
                "account-item:1:10", "account-item:2:00", "account-item:3:10", "account-item:4:00",
            ])
    }

    @Test("the server's states apply to the articles without a pending mark, and are not sent back")
    func applyStates() async throws {
        let (database, accounts, account, ids) = try await setUp()
        let articles = ArticleRepository(database: database)
        // Pending: 1 starred here.
        try await articles.setStarred(true, ids: [try await articleID(database, "account-item:1")])
        let changes = try await accounts.applyStates(
            unread: ["account-item:3", "account-item:4"], starred: ["account-item:2"], account: account.id)
        #expect(changes.read == 2)  // 1 and 2 become read (1's pending mark is of its star)
        #expect(changes.starred == 1)  // 2 becomes starred; 1 keeps its pending star
        #expect(
            try await statuses(database) == [
                "account-item:1:11", "account-item:2:11", "account-item:3:00", "account-item:4:00",
            ])
        #expect(try await accounts.pendingMarks(account: account.id).map(\.target) == ["account-item:1"])

        // A feed marked read here keeps its articles read until the mark is sent; stars apply.
        try await accounts.markFeedRead(ids["2"]!, before: Date())
        _ = try await accounts.applyStates(
            unread: ["account-item:2", "account-item:3", "account-item:4"], starred: [], account: account.id)
        #expect(
            try await statuses(database) == [
                "account-item:1:11", "account-item:2:10", "account-item:3:00", "account-item:4:10",
            ])
    }

    @Test("a sync's end or failure is recorded")
    func recordSync() async throws {
        let (_, accounts, account, _) = try await setUp()
        try await accounts.recordSync(account: account.id, at: Date(timeIntervalSince1970: 5), problem: nil)
        try await accounts.recordSync(account: account.id, at: Date(timeIntervalSince1970: 9), problem: "down")
        let stored = try await accounts.account(id: account.id)
        #expect(stored?.syncedAt == Date(timeIntervalSince1970: 5))
        #expect(stored?.problem == "down")
    }
}
