import Foundation
import Models
import Storage
import Testing

// The getting-started snippet of Sources/Storage/Storage.docc/Storage.md, compiled and run.
// DocumentationTests (REPLTests) checks that the page shows this code verbatim.

/// Saves a subscription and its first article in the database at `path` (created when
/// missing) and returns the change set of the article's commit.
func saveFirstArticle(databasePath path: String) async throws -> ChangeSet? {
    let database = try AppDatabase(path: path)
    let changes = database.changes()  // subscribe before writing: a stream starts at the next commit
    let feedURL = URL(filePath: "/tmp/example.xml")
    let feed = try await FeedRepository(database: database).add(FeedSource(url: feedURL, title: "Example"))
    guard let feedID = feed.id else { return nil }
    let article = Article(feedID: feedID, uniqueID: "first", title: "Hello, Storage")
    _ = try await ArticleRepository(database: database).save(article)

    var commits = changes.makeAsyncIterator()
    _ = await commits.next()  // the subscription's commit
    return await commits.next()  // the article's commit: changeSet[.article].inserted holds its id
}

@Suite("Storage: getting started")
struct StorageGettingStartedTests {
    @Test("the article's commit reports one inserted article, written by the app, and it is stored")
    func articleCommitIsReported() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tidings-storage-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sqlite").path

        let changeSet = try #require(try await saveFirstArticle(databasePath: path))

        #expect(changeSet.source == .app)
        #expect(changeSet[.article].inserted.count == 1)
        #expect(changeSet[.feed].isEmpty)
        let reopened = try AppDatabase(path: path)
        let stored = try await ArticleRepository(database: reopened).articles(matching: ArticleQuery())
        #expect(stored.map(\.article.title) == ["Hello, Storage"])
        #expect(stored.map(\.id) == Array(changeSet[.article].inserted))
        #expect(try await FeedRepository(database: reopened).all().map(\.title) == ["Example"])
    }
}
