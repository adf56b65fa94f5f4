import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("Upgrading the search index")
struct SearchIndexUpgradeTests {
    @Test(
        "a database from before substring search, its own tokenizer or the word index without positions is indexed anew",
        arguments: ["v5-config-source", "v7-no-http-cache", "v11-chore-sync-undo"])
    func upgrade(from release: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        // The file as an earlier release left it, its indexes up to date.
        // Opened as Tidings opens it (the substring index's tokenizer registered).
        let queue = try DatabaseQueue(
            path: path, configuration: AppDatabase.configuration(options: .init(), storePath: path, onStatement: nil))
        try AppDatabase.migrator.migrate(queue, upTo: release)
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO feed (id, url, title) VALUES (1, 'https://example.com/feed', 'Example');
                    INSERT INTO article (id, feedId, uniqueId, title, sortDate, contentText)
                    VALUES (1, 1, 'a', '今日は天気がいい', 0, 'JavaScript tips'), (2, 1, 'b', 'Swift', 1, 'Actors');
                    INSERT INTO articleStatus (feedId, uniqueId, arrivedAt) VALUES (1, 'a', 0), (1, 'b', 1);
                    INSERT INTO articleSearch (rowid, title, body) SELECT id, title, contentText FROM article;
                    UPDATE articleSearchState SET indexedThrough = 2;
                    """)
            if release != "v5-config-source" {
                try db.execute(
                    sql: """
                        INSERT INTO articleSubstring (rowid, title, body)
                        SELECT id, title || '  ', contentText || '  ' FROM article
                        """)
            }
        }
        try queue.close()
        let database = try AppDatabase(path: path)
        let repository = ArticleRepository(database: database)
        #expect(try await repository.count(matching: ArticleQuery(search: "天気")) == 1)
        #expect(try await repository.count(matching: ArticleQuery(search: "script")) == 1)
        #expect(try await repository.count(matching: ArticleQuery(search: "actors")) == 1)
        #expect(try await repository.updateSearchIndex() == 0)
        try await checkSearchIndexes(database)
        let wordIndex = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM search.sqlite_master WHERE name = 'articleSearch'")
        }
        #expect(wordIndex?.contains("detail=none, columnsize=0") == true)
        let merges = try await database.read { db in
            try ["articleSearch_config", "articleSubstring_config"].map { table in
                try Int.fetchOne(db, sql: "SELECT v FROM \(table) WHERE k = 'automerge'")
            }
        }
        #expect(merges == [8, 8])
    }
}
