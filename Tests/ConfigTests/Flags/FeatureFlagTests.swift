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

    /// 1,000 fixed installation ids, the same on every run.
    let installations = (0..<1000).map { String(format: "00000000-0000-0000-0000-%012d", $0) }

    @Test(
        "a rollout enables the installations whose bucket is below it: a known number of 1,000 fixed ids",
        arguments: [(10, 112), (25, 258), (50, 498), (75, 759)])
    func rolloutShare(percentage: Int, enabled: Int) throws {
        let config = try snapshot(#"{"rollouts":{"newRenderer":\#(percentage)}}"#)
        #expect(installations.filter { config.isEnabled(feature: "newRenderer", installationID: $0) }.count == enabled)
    }

    // Buckets worked out apart from the code (FNV-1a 64 over "feature:id", MurmurHash3's fmix64,
    // modulo 100). A different bucket moves users in or out of running rollouts.
    @Test(
        "an installation id has the same bucket for a feature on every run and machine",
        arguments: [
            ("newRenderer", "00000000-0000-0000-0000-000000000000", 92),
            ("other", "00000000-0000-0000-0000-000000000000", 13),
            ("newRenderer", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", 2), ("newRenderer", "abc", 21),
            ("newRenderer", "a", 57),
        ])
    func fixedBucket(feature: String, installationID: String, bucket: Int) throws {
        let atBucket = try snapshot(#"{"rollouts":{"\#(feature)":\#(bucket)}}"#)
        let aboveBucket = try snapshot(#"{"rollouts":{"\#(feature)":\#(bucket + 1)}}"#)
        #expect(!atBucket.isEnabled(feature: feature, installationID: installationID))
        #expect(aboveBucket.isEnabled(feature: feature, installationID: installationID))
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
        #expect(in25.count == 258 && in50.count == 498)
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
