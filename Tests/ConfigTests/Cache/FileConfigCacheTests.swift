import Config
import Foundation
import Models
import Networking
import NetworkingTestSupport
import Testing

@Suite("The cached copy in the home directory")
struct FileConfigCacheTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-config-\(UUID().uuidString)")

    @Test("a persisted document comes back with its validators and exact fetch time")
    func roundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let cache = FileConfigCache(home: home)
        #expect(try await cache.fetch() == nil)
        let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000.25)
        let document = CachedConfig(
            body: Data(#"{"minVersion":"1.2.0","features":{"a":true}}"#.utf8), etag: "\"v7\"",
            lastModified: "Sat, 13 Mar 2021 09:00:00 GMT", fetchedAt: fetchedAt,
            sourceURL: URL(string: "https://config.example/tidings.json"))
        try await cache.persist(document)
        let loaded = try #require(try await cache.fetch())
        #expect(loaded.etag == "\"v7\"")
        #expect(loaded.lastModified == "Sat, 13 Mar 2021 09:00:00 GMT")
        #expect(loaded.fetchedAt == fetchedAt)
        #expect(loaded.sourceURL == URL(string: "https://config.example/tidings.json"))
        #expect(try BundledConfig.decode(loaded.body, source: "cached")["features.a"] == .bool(true))
        // The last refresh attempt lives in a file beside it.
        #expect(await cache.lastAttempt() == nil)
        let attempt = ConfigAttempt(at: fetchedAt, result: "failed: the server answered HTTP 500")
        await cache.recordAttempt(attempt)
        #expect(await FileConfigCache(home: home).lastAttempt() == attempt)
        #expect(try await cache.fetch() == loaded)
    }

    @Test("writes replace the file whole and leave no temporary files behind")
    func atomicWrites() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let cache = FileConfigCache(home: home)
        for version in 1...5 {
            try await cache.persist(CachedConfig(body: Data(#"{"v":\#(version)}"#.utf8), fetchedAt: Date()))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(names == ["config-cache.json"])
        let loaded = try #require(try await cache.fetch())
        #expect(try BundledConfig.decode(loaded.body, source: "cached")["v"] == .integer(5))
    }

    @Test("a corrupt file is reported, moved aside, and the provider starts from the default")
    func corruptFile() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let cache = FileConfigCache(home: home)
        try Data(#"{"document":{"minVersion":"#.utf8).write(to: cache.fileURL)
        let provider = await ConfigProvider.start(
            configURL: Fixture.url, defaults: Fixture.defaults, local: cache,
            remote: Fixture.loader(InMemoryTransport()),
            installationID: "x")
        guard case .cacheUnreadable(let location, _)? = provider.cacheProblem else {
            Issue.record("expected cacheUnreadable, got \(String(describing: provider.cacheProblem))")
            return
        }
        #expect(location == cache.fileURL.path)
        #expect(provider.current.source == .default)
        #expect(provider.current.config == Fixture.defaults)
        #expect(!FileManager.default.fileExists(atPath: cache.fileURL.path))
        #expect(FileManager.default.fileExists(atPath: cache.fileURL.path + ".corrupt"))
        #expect(try await cache.fetch() == nil)
    }

    @Test("a corrupt cache is rewritten by the next successful refresh")
    func corruptRewritten() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let cache = FileConfigCache(home: home)
        try Data("garbage".utf8).write(to: cache.fileURL)
        let transport = InMemoryTransport([Fixture.json(#"{"minVersion":"1.1.0"}"#, etag: "\"a\"")])
        let provider = await ConfigProvider.start(
            configURL: Fixture.url, defaults: Fixture.defaults, local: cache, remote: Fixture.loader(transport),
            installationID: "x")
        #expect(provider.cacheProblem != nil)
        #expect(await provider.refresh() == .updated(changedKeys: ["minVersion"]))
        let rewritten = try #require(try await cache.fetch())
        #expect(rewritten.etag == "\"a\"")
    }

    @Test("the installation id is created once and read back on every later run")
    func installationID() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try InstallationID.loadOrCreate(home: home)
        let second = try InstallationID.loadOrCreate(home: home)
        #expect(first == second)
        #expect(!first.isEmpty)
        let otherHome = home.appendingPathComponent("other")
        #expect(try InstallationID.loadOrCreate(home: otherHome) != first)
    }

    @Test("an installation id that cannot be written is reported")
    func installationIDUnwritable() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let blocker = home.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let error = #expect(throws: ConfigError.self) { try InstallationID.loadOrCreate(home: blocker) }
        guard case .installationIDUnavailable(let location, _) = error else {
            Issue.record("expected installationIDUnavailable, got \(String(describing: error))")
            return
        }
        #expect(location == blocker.appendingPathComponent("installation-id").path)
    }
}
