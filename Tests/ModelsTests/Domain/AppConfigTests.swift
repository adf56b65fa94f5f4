import Foundation
import Models
import Testing

@Suite("AppConfig")
struct AppConfigTests {
    let document = """
        {"minVersion":"1.2","refreshIntervalMinutes":30,"maxConcurrentRefreshes":8,"maxConnectionsPerHost":3,
         "features":{"fullTextSearch":true,"darkMode":false},"rollouts":{"newRenderer":25},
         "configURL":"https://example.com/config.json","motd":"hello","limits":{"items":{"max":500}}}
        """

    func config(_ json: String) throws -> AppConfig {
        try JSONDecoder().decode(AppConfig.self, from: Data(json.utf8))
    }

    @Test("known keys are typed")
    func typedAccess() throws {
        let config = try config(document)
        #expect(try config.minimumVersion() == SemanticVersion("1.2.0"))
        #expect(config.refreshIntervalMinutes == 30)
        #expect(config.maxConcurrentRefreshes == 8)
        #expect(config.maxConnectionsPerHost == 3)
        #expect(config.features == ["fullTextSearch": true, "darkMode": false])
        #expect(config.rollouts == ["newRenderer": 25])
        #expect(config.configURL == URL(string: "https://example.com/config.json"))
    }

    @Test("unknown keys are kept, readable by dotted path, and survive a round trip")
    func unknownKeysKept() throws {
        let config = try config(document)
        #expect(config["motd"] == .string("hello"))
        #expect(config["limits.items.max"] == .integer(500))
        #expect(config["features.fullTextSearch"] == .bool(true))
        #expect(config["limits.nothing"] == nil)
        #expect(config["motd.deeper"] == nil)
        let again = try JSONDecoder().decode(AppConfig.self, from: JSONEncoder().encode(config))
        #expect(again == config)
    }

    @Test("the update gate compares versions numerically")
    func updateGate() throws {
        let config = try config(#"{"minVersion":"1.10.0"}"#)
        #expect(config.isUpdateRequired(appVersion: try SemanticVersion("1.9.9")))
        #expect(!config.isUpdateRequired(appVersion: try SemanticVersion("1.10")))
        #expect(!config.isUpdateRequired(appVersion: try SemanticVersion("2.0.0")))
        #expect(config.isUpdateRequired(appVersion: try SemanticVersion("1.10.0-beta.1")))
    }

    @Test("a malformed minimum version is reported and never locks anyone out")
    func malformedMinimum() throws {
        for json in [#"{"minVersion":"banana"}"#, #"{"minVersion":7}"#] {
            let config = try config(json)
            #expect(throws: ModelError.self) { try config.minimumVersion() }
            #expect(!config.isUpdateRequired(appVersion: try SemanticVersion("0.0.1")))
        }
        #expect(try config(#"{"minVersion":null}"#).minimumVersion() == nil)
        #expect(try config("{}").minimumVersion() == nil)
    }

    @Test("changed keys lists additions, removals and edits, sorted")
    func changedKeys() throws {
        let old = try config(#"{"a":1,"b":{"x":true},"c":"same"}"#)
        let new = try config(#"{"b":{"x":false},"c":"same","d":null}"#)
        #expect(new.changedKeys(comparedTo: old) == ["a", "b", "d"])
        #expect(new.changedKeys(comparedTo: new).isEmpty)
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test("decodes each JSON kind to the matching case and prints compact JSON")
    func kinds() throws {
        let value = try JSONDecoder().decode(
            JSONValue.self, from: Data(#"{"a":null,"b":true,"c":3,"d":2.5,"e":"x","f":[1,"y"],"g":{"h":false}}"#.utf8))
        #expect(value["a"] == nil || value[path: "a"] == .null)
        #expect(value[path: "b"] == .bool(true))
        #expect(value[path: "c"] == .integer(3))
        #expect(value[path: "d"] == .double(2.5))
        #expect(value[path: "e"] == .string("x"))
        #expect(value[path: "f"] == .array([.integer(1), .string("y")]))
        #expect(value[path: "g.h"] == .bool(false))
        #expect(value.description == #"{"a":null,"b":true,"c":3,"d":2.5,"e":"x","f":[1,"y"],"g":{"h":false}}"#)
    }

    @Test("typed accessors return nil for other kinds")
    func accessors() {
        #expect(JSONValue.integer(3).intValue == 3)
        #expect(JSONValue.double(4).intValue == 4)
        #expect(JSONValue.double(4.5).intValue == nil)
        #expect(JSONValue.string("3").intValue == nil)
        #expect(JSONValue.bool(true).stringValue == nil)
        #expect(JSONValue.integer(1).boolValue == nil)
    }
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? { self[path: key] == .null ? nil : self[path: key] }
}
