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
}
