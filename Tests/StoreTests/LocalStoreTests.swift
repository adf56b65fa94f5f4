import Foundation
import Models
import Storage
import Testing

@testable import Store

/// The store an app opens: a file, created when missing, whose data version follows commits.
@Suite("LocalStore")
struct LocalStoreTests {
    @Test(
        "a store opened at a path creates the file, its data version moves when another connection commits, and it opens again"
    )
    func openAndVersion() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-store-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let store = try LocalStore.open(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        let before = try #require(await store.dataVersion())
        let other = try LocalStore.open(path: path)
        _ = try await other.feeds.add(
            FeedSource(url: try #require(URL(string: "https://example.com/feed.xml")), title: "Kitchen"))
        #expect(try #require(await store.dataVersion()) != before)
        try await store.finishWrites()
        #expect(throws: Never.self) { _ = try LocalStore.open(path: path) }
    }

    @Test("a file that is not a database is refused with a storage error, and left as it was")
    func notADatabase() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID())")
        try Data("hello, not SQLite at all".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: StorageError.self) { _ = try LocalStore.open(path: file.path) }
        #expect(try Data(contentsOf: file) == Data("hello, not SQLite at all".utf8))
    }
}
