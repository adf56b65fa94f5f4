import Foundation
import Storage
import Testing

/// A fresh directory under the system's temporary directory, removed by the caller.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("AppDatabase")
struct AppDatabaseTests {
    @Test("a new file database is created, migrated and usable")
    func createsFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let database = try AppDatabase(path: path)
        let cache = ConfigCacheRepository(database: database)
        #expect(try cache.load() == nil)
        #expect(FileManager.default.fileExists(atPath: path))
        // WAL mode leaves its journal beside the file.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("reopening a file keeps what was saved")
    func reopens() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let document = CachedDocument(
            body: Data(#"{"minVersion":"1.0.0"}"#.utf8), etag: "\"v1\"", lastModified: "Sat, 13 Mar 2021 09:00:00 GMT",
            fetchedAt: Date(timeIntervalSince1970: 1_615_626_000))
        try ConfigCacheRepository(database: AppDatabase(path: path)).save(document)
        #expect(try ConfigCacheRepository(database: AppDatabase(path: path)).load() == document)
    }

    @Test("a file that is not a database fails with a clear error and is left alone")
    func corruptFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("tidings.sqlite")
        let garbage = Data(String(repeating: "this is not sqlite\n", count: 400).utf8)
        try garbage.write(to: url)
        #expect(throws: StorageError.self) { try AppDatabase(path: url.path) }
        do {
            _ = try AppDatabase(path: url.path)
        } catch {
            #expect(error.localizedDescription.contains("is not a Tidings database"))
        }
        #expect(try Data(contentsOf: url) == garbage)
    }

    @Test("saving again replaces the single cached config row")
    func replaces() throws {
        let cache = ConfigCacheRepository(database: try AppDatabase.inMemory())
        let first = CachedDocument(body: Data("1".utf8), fetchedAt: Date(timeIntervalSince1970: 1))
        let second = CachedDocument(body: Data("2".utf8), etag: "e", fetchedAt: Date(timeIntervalSince1970: 2))
        try cache.save(first)
        try cache.save(second)
        #expect(try cache.load() == second)
    }
}
