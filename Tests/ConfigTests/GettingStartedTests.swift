import Config
import Foundation
import Models
import Networking
import Testing

// The getting-started snippet of Sources/Config/Config.docc/Config.md, compiled and run.
// DocumentationTests (REPLTests) checks that the page shows this code verbatim.

/// Starts the remote configuration of an app whose files live in `home`: the cached copy, else
/// the bundled default, is in force at once; the refresh fetches `configURL`, activates the new
/// document and caches it for the next start.
func startConfiguration(home: URL, configURL: URL) async throws -> ConfigProvider {
    let defaults = try BundledConfig.load()
    let installationID = try InstallationID.loadOrCreate(home: home)
    let provider = await ConfigProvider.start(
        configURL: configURL, defaults: defaults, local: FileConfigCache(home: home),
        remote: HTTPConfigLoader(transport: CurlTransport()), installationID: installationID)
    if case .failed(let error) = await provider.refresh() {
        print("keeping the configuration in force:", error.errorDescription ?? "\(error)")
    }
    return provider
}

@Suite("Config: getting started")
struct ConfigGettingStartedTests {
    @Test("the fetched document is in force, keeps the defaults it does not set, and is cached for the next start")
    func fetchedDocumentInForceAndCached() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-config-start-\(UUID())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // A file: URL is read from disk, so the snippet runs here without a server.
        let served = home.appendingPathComponent("served-config.json")
        try Data(#"{"minVersion": "2.0.0", "features": {"offlineReading": true}}"#.utf8).write(to: served)

        let provider = try await startConfiguration(home: home, configURL: served)

        #expect(provider.isEnabled(feature: "offlineReading"))
        #expect(provider.isEnabled(feature: "fullTextSearch"))  // the bundled default's, kept
        #expect(provider.isUpdateRequired(appVersion: SemanticVersion(major: 1, minor: 5)))
        #expect(provider.value(forKey: "minVersion")?.source == .remote)
        #expect(provider.value(forKey: "maxConcurrentRefreshes")?.source == .default)

        // The next start finds the cached copy even when the server cannot be reached.
        try FileManager.default.removeItem(at: served)
        let restarted = try await startConfiguration(home: home, configURL: served)
        #expect(restarted.value(forKey: "minVersion")?.source == .cached)
        #expect(restarted.isEnabled(feature: "offlineReading"))
        #expect(restarted.installationID == provider.installationID)
    }
}
