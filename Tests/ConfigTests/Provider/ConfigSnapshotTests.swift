import Config
import Foundation
import Models
import Testing

@Suite("Config snapshot")
struct ConfigSnapshotTests {
    @Test("a dotted top-level key names the path it spells: one entry, its true source, readable by get")
    func dottedKeys() {
        let defaults = AppConfig(values: [
            "rollouts": .object(["newRenderer": .integer(25)]), "features": .object(["search": .bool(true)]),
            "minVersion": .string("1.0.0"),
        ])
        let document = AppConfig(values: [
            "rollouts.newRenderer": .integer(100), "features": .object(["beta.labs": .bool(true)]),
            "a.b.c": .string("deep"),
        ])
        let snapshot = ConfigSnapshot(defaults: defaults, document: document, source: .remote)
        let entries = snapshot.entries.map { "\($0.key)=\($0.value.description) \($0.source.rawValue)" }
        #expect(
            entries == [
                "a.b.c=\"deep\" remote", "features.beta.labs=true remote", "features.search=true default",
                "minVersion=\"1.0.0\" default", "rollouts.newRenderer=100 remote",
            ], "\(entries)")
        #expect(snapshot.value(forKey: "rollouts.newRenderer")?.value == .integer(100))
        #expect(snapshot.value(forKey: "rollouts.newRenderer")?.source == .remote)
        #expect(snapshot.changedKeys(since: ConfigSnapshot(defaults: defaults)).contains("rollouts.newRenderer"))
    }

    @Test(
        "a key with an empty segment (a..b, .x, y.) is no path to expand: it stays one entry under its own name, with its true source, readable by get"
    )
    func emptySegments() {
        let defaults = AppConfig(values: ["a": .object(["b": .integer(1)]), "y": .integer(5)])
        let document = AppConfig(values: [
            "a..b": .integer(2), ".x": .integer(3), "y.": .integer(4), "features": .object(["z..w": .bool(true)]),
        ])
        let snapshot = ConfigSnapshot(defaults: defaults, document: document, source: .remote)
        let entries = snapshot.entries.map { "\($0.key)=\($0.value.description) \($0.source.rawValue)" }
        #expect(
            entries == [
                ".x=3 remote", "a.b=1 default", "a..b=2 remote", "features.z..w=true remote", "y=5 default",
                "y.=4 remote",
            ], "\(entries)")
        for (key, value) in [(".x", 3), ("a..b", 2), ("y.", 4)] {
            #expect(snapshot.value(forKey: key)?.value == .integer(value), "\(key)")
            #expect(snapshot.value(forKey: key)?.source == .remote, "\(key)")
        }
        #expect(snapshot.value(forKey: "features.z..w")?.source == .remote)
        #expect(snapshot.value(forKey: "a.b")?.source == .default)
    }
}
