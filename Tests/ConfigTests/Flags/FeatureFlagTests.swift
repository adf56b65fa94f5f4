import Config
import Foundation
import Models
import Networking
import NetworkingTestSupport
import Testing

@Suite("Feature flags, rollouts and the minimum version")
struct FeatureFlagTests {
    func snapshot(_ document: String) throws -> ConfigSnapshot {
        ConfigSnapshot(
            defaults: Fixture.defaults, document: try BundledConfig.decode(Data(document.utf8), source: "remote"))
    }

    let installations = (0..<1000).map { _ in UUID().uuidString.lowercased() }

    @Test("a 25% rollout enables 25% ± 4% of 1,000 installations")
    func quarter() throws {
        let config = try snapshot(#"{"rollouts":{"newRenderer":25}}"#)
        let enabled = installations.filter { config.isEnabled(feature: "newRenderer", installationID: $0) }.count
        #expect((210...290).contains(enabled), "\(enabled) of 1000 enabled")
    }

    @Test("a rollout of 0 is nobody and 100 is everybody")
    func extremes() throws {
        let none = try snapshot(#"{"rollouts":{"newRenderer":0}}"#)
        let all = try snapshot(#"{"rollouts":{"newRenderer":100}}"#)
        #expect(!installations.contains { none.isEnabled(feature: "newRenderer", installationID: $0) })
        #expect(installations.allSatisfy { all.isEnabled(feature: "newRenderer", installationID: $0) })
    }

    @Test("an installation's bucket is stable: raising a rollout only adds installations")
    func stableBuckets() throws {
        let at25 = try snapshot(#"{"rollouts":{"newRenderer":25}}"#)
        let at50 = try snapshot(#"{"rollouts":{"newRenderer":50}}"#)
        let in25 = Set(installations.filter { at25.isEnabled(feature: "newRenderer", installationID: $0) })
        let in50 = Set(installations.filter { at50.isEnabled(feature: "newRenderer", installationID: $0) })
        #expect(in25.isSubset(of: in50))
        #expect(in25.count < in50.count)
        // A fixed id gives a fixed answer on every run and machine (FNV-1a, not Hasher).
        #expect(
            at25.isEnabled(feature: "newRenderer", installationID: "00000000-0000-0000-0000-000000000000")
                == at25.isEnabled(feature: "newRenderer", installationID: "00000000-0000-0000-0000-000000000000"))
    }

    @Test("features and rollouts combine: false is a kill switch, a rollout limits true, absent is off")
    func combination() throws {
        let config = try snapshot(
            #"{"features":{"off":false,"on":true,"limited":true,"killed":false},"rollouts":{"limited":0,"killed":100,"rolled":100}}"#
        )
        #expect(!config.isEnabled(feature: "off", installationID: "a"))
        #expect(config.isEnabled(feature: "on", installationID: "a"))
        #expect(!config.isEnabled(feature: "limited", installationID: "a"))
        #expect(!config.isEnabled(feature: "killed", installationID: "a"))
        #expect(config.isEnabled(feature: "rolled", installationID: "a"))
        #expect(!config.isEnabled(feature: "unknown", installationID: "a"))
    }

    @Test("the provider evaluates flags for its own installation id")
    func providerFlags() async throws {
        let transport = InMemoryTransport([
            Fixture.json(#"{"rollouts":{"newRenderer":100},"features":{"fullTextSearch":false}}"#)
        ])
        let provider = await Fixture.provider(transport: transport, installationID: "abc")
        #expect(provider.isEnabled(feature: "fullTextSearch"))
        _ = await provider.refresh()
        #expect(provider.isEnabled(feature: "newRenderer"))
        #expect(!provider.isEnabled(feature: "fullTextSearch"))
    }

    @Test("an update is required when minVersion is above the app version, compared numerically")
    func updateRequired() async throws {
        let transport = InMemoryTransport([Fixture.json(#"{"minVersion":"1.10.0"}"#)])
        let provider = await Fixture.provider(transport: transport)
        #expect(!provider.isUpdateRequired(appVersion: try SemanticVersion("1.9.0")))
        _ = await provider.refresh()
        #expect(provider.minVersion == (try SemanticVersion("1.10")))
        #expect(provider.isUpdateRequired(appVersion: try SemanticVersion("1.9.0")))
        #expect(provider.isUpdateRequired(appVersion: try SemanticVersion("1.10.0-beta.1")))
        #expect(!provider.isUpdateRequired(appVersion: try SemanticVersion("1.10")))
    }

    @Test("a malformed minVersion from the server is no requirement, and is reported")
    func malformedMinVersion() async throws {
        let transport = InMemoryTransport([Fixture.json(#"{"minVersion":"banana"}"#)])
        let provider = await Fixture.provider(transport: transport)
        #expect(await provider.refresh() == .updated(changedKeys: ["minVersion"]))
        #expect(provider.minVersion == nil)
        #expect(!provider.isUpdateRequired(appVersion: try SemanticVersion("0.0.1")))
        let problem = #"minVersion "banana" is not a version number, so no update is required"#
        #expect(provider.minVersionProblem == problem)
        #expect(provider.lastRefresh?.warnings == [problem])
    }
}
