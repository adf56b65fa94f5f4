import Config
import Foundation
import Models
import Testing

@Suite("Known keys and the config URL")
struct ConfigDocumentTests {
    @Test(
        "a wrong type or range for a known key is refused with its path",
        arguments: [
            (#"{"minVersion":2}"#, "minVersion: expected a version string"),
            (#"{"maxConcurrentRefreshes":0}"#, "maxConcurrentRefreshes: expected a whole number from 1 to 52560000"),
            (#"{"maxConnectionsPerHost":0}"#, "maxConnectionsPerHost: expected a whole number from 1 to 52560000"),
            (#"{"maxConnectionsPerHost":"2"}"#, "maxConnectionsPerHost: expected a whole number from 1"),
            (#"{"maxRetryAfterMinutes":153722867280912931}"#, "maxRetryAfterMinutes: expected a whole number from 1"),
            (#"{"refreshIntervalMinutes":1.5}"#, "refreshIntervalMinutes: expected a whole number"),
            (#"{"features":[true]}"#, "features: expected an object"),
            (#"{"rollouts":{"newRenderer":150}}"#, "rollouts.newRenderer: expected a whole percentage from 0 to 100"),
            (#"{"rollouts":{"newRenderer":"25%"}}"#, "rollouts.newRenderer: expected a whole percentage"),
            (#"{"configURL":"not a url"}"#, "configURL: expected an absolute URL string"),
        ])
    func wrongTypes(document: String, message: String) {
        do {
            _ = try BundledConfig.decode(Data(document.utf8), source: "remote")
            Issue.record("\(document) was accepted")
        } catch {
            #expect(error.errorDescription?.hasPrefix("the remote configuration is invalid: " + message) == true)
        }
    }

    @Test("unknown keys of any type are kept, and a malformed minVersion string is accepted")
    func unknownKeysKept() throws {
        let config = try BundledConfig.decode(
            Data(#"{"minVersion":"banana","theme":{"accent":"teal","sizes":[1,2]},"beta":null}"#.utf8), source: "remote"
        )
        #expect(config["theme.accent"] == .string("teal"))
        #expect(config["beta"] == .null)
    }

    @Test("the config URL comes from the flag, else the environment, else the bundled default")
    func urlPrecedence() throws {
        let bundled = Fixture.defaults
        let environment = ["TIDINGS_CONFIG_URL": "https://env.example/c.json"]
        let flag = try ConfigURLSelection.choose(
            flag: "http://127.0.0.1:9/c.json", environment: environment, bundled: bundled)
        #expect(flag == ConfigURLSelection(url: URL(string: "http://127.0.0.1:9/c.json")!, origin: .flag))
        let fromEnvironment = try ConfigURLSelection.choose(flag: nil, environment: environment, bundled: bundled)
        #expect(fromEnvironment?.url.absoluteString == "https://env.example/c.json")
        #expect(fromEnvironment?.origin == .environment)
        let fromDefault = try ConfigURLSelection.choose(
            flag: "", environment: ["TIDINGS_CONFIG_URL": ""], bundled: bundled)
        #expect(fromDefault == ConfigURLSelection(url: Fixture.url, origin: .bundled))
        let file = try ConfigURLSelection.choose(flag: "file:///tmp/c.json", environment: [:], bundled: bundled)
        #expect(file?.url.isFileURL == true)
        // Nothing set anywhere: no remote source, not an error.
        #expect(try ConfigURLSelection.choose(flag: "", environment: [:], bundled: AppConfig(values: [:])) == nil)
    }

    @Test("a config URL that is not http, https or file is refused, naming where it came from")
    func invalidURL() {
        #expect(throws: ConfigError.invalidConfigURL("ftp://x/c.json", origin: "TIDINGS_CONFIG_URL")) {
            try ConfigURLSelection.choose(
                flag: nil, environment: ["TIDINGS_CONFIG_URL": "ftp://x/c.json"], bundled: Fixture.defaults)
        }
        #expect(throws: ConfigError.invalidConfigURL("no scheme", origin: "--config-url")) {
            try ConfigURLSelection.choose(flag: "no scheme", environment: [:], bundled: Fixture.defaults)
        }
        #expect(throws: ConfigError.self) {
            try ConfigURLSelection.choose(
                flag: nil, environment: [:], bundled: AppConfig(values: ["configURL": .integer(3)]))
        }
    }
}
