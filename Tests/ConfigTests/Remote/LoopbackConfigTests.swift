import Config
import Foundation
import Models
import Networking
import Testing

/// The whole path over a real HTTP server on 127.0.0.1 (Support/config_server.py).
@Suite("Config over a real loopback server")
struct LoopbackConfigTests {
    @Test("a changed document reports its changed keys; an unchanged one comes back as 304")
    func changesAndNotModified() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-loopback-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try await withConfigServer { base in
            let transport = CurlTransport(configuration: .init(timeout: 10))
            let url = base.appendingPathComponent("config.json")
            let cache = FileConfigCache(home: home)
            let loader = HTTPConfigLoader(transport: transport)
            let provider = await ConfigProvider.start(
                configURL: url, defaults: Fixture.defaults, local: cache, remote: loader, installationID: "loopback")
            let updates = provider.updates()

            try await put(
                #"{"minVersion":"1.0.0","features":{"fullTextSearch":true},"motd":"one"}"#, to: url, transport)
            #expect(await provider.refresh(force: true) == .updated(changedKeys: ["motd"]))
            #expect(await provider.refresh(force: true) == .notModified)

            try await put(
                #"{"minVersion":"2.0.0","features":{"fullTextSearch":false},"motd":"one"}"#, to: url, transport)
            #expect(
                await provider.refresh(force: true) == .updated(changedKeys: ["features.fullTextSearch", "minVersion"]))
            #expect(provider.isUpdateRequired(appVersion: try SemanticVersion("1.5.0")))

            var iterator = updates.makeAsyncIterator()
            #expect(await iterator.next()?.changedKeys == ["motd"])
            #expect(await iterator.next()?.changedKeys == ["features.fullTextSearch", "minVersion"])

            // The next run starts from the file cache and revalidates it with its validators.
            let nextRun = await ConfigProvider.start(
                configURL: url, defaults: Fixture.defaults, local: cache, remote: loader, installationID: "loopback")
            #expect(nextRun.current.source == .cached)
            #expect(nextRun.value(forKey: "minVersion")?.value == .string("2.0.0"))
            #expect(await nextRun.refresh(force: true) == .notModified)
            #expect(nextRun.current.source == .remote)
        }
    }

    private func put(_ document: String, to url: URL, _ transport: CurlTransport) async throws {
        let response = try await transport.send(HTTPRequest(method: .put, url: url, body: Data(document.utf8)))
        #expect(response.status == 204)
    }
}
