import Config
import Foundation
import Models
import Testing

@Suite("Bundled default config")
struct BundledConfigTests {
    @Test("the bundled default loads, decodes and carries every known key")
    func loads() throws {
        let config = try BundledConfig.load()
        // A new user's program has no remote source: the shipped default names none.
        #expect(config.configURL == nil)
        #expect(try config.minimumVersion() != nil)
        #expect(config.refreshIntervalMinutes != nil)
        #expect(config.maxConcurrentRefreshes != nil)
        #expect(config.maxConnectionsPerHost == 2)
        #expect(config.features["fullTextSearch"] != nil)
        #expect(config.rollouts["newRenderer"] != nil)
    }

    @Test("the bundled minimum version does not lock out the version it ships with")
    func defaultDoesNotLockOut() throws {
        let config = try BundledConfig.load()
        let minimum = try #require(try config.minimumVersion())
        #expect(!config.isUpdateRequired(appVersion: minimum))
    }

    @Test("a broken document is reported with its source and the path of the problem")
    func brokenDocument() {
        #expect(throws: ConfigError.self) { try BundledConfig.decode(Data("[1]".utf8), source: "cached") }
        do {
            _ = try BundledConfig.decode(Data(#"{"minVersion":"1.0","#.utf8), source: "cached")
        } catch {
            #expect(error.localizedDescription.hasPrefix("the cached configuration is invalid: "))
        }
    }
}
