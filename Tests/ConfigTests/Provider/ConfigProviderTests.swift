import Config
import Foundation
import Models
import Networking
import NetworkingTestSupport
import Testing

@Suite("ConfigProvider: start-up, refresh, sources and updates")
struct ConfigProviderTests {
    @Test("with no cache it starts at once from the bundled default")
    func startsFromDefault() async {
        let provider = await Fixture.provider(transport: InMemoryTransport())
        #expect(provider.current.source == .default)
        #expect(provider.current.config == Fixture.defaults)
        #expect(
            provider.value(forKey: "minVersion")
                == ConfigValue(key: "minVersion", value: .string("1.0.0"), source: .default, fetchedAt: nil))
        #expect(provider.lastRefresh == nil)
        #expect(provider.nextRefreshAllowed == nil)
        #expect(provider.cacheProblem == nil)
    }

    @Test("with a cached copy it starts from it; keys the copy lacks come from the default")
    func startsFromCache() async {
        let fetchedAt = Date(timeIntervalSince1970: 1_799_000_000)
        let cache = MemoryConfigCache(
            CachedConfig(
                body: Data(#"{"minVersion":"1.1.0","features":{"beta":true}}"#.utf8), etag: "\"c\"",
                fetchedAt: fetchedAt))
        let provider = await Fixture.provider(transport: InMemoryTransport(), cache: cache)
        #expect(provider.current.source == .cached)
        #expect(provider.value(forKey: "minVersion")?.source == .cached)
        #expect(provider.value(forKey: "minVersion")?.fetchedAt == fetchedAt)
        #expect(
            provider.value(forKey: "features.beta")
                == ConfigValue(key: "features.beta", value: .bool(true), source: .cached, fetchedAt: fetchedAt))
        #expect(provider.value(forKey: "features.fullTextSearch")?.source == .default)
        #expect(provider.value(forKey: "maxConcurrentRefreshes")?.source == .default)
        #expect(provider.lastRefresh?.at == fetchedAt)
        #expect(provider.features == ["beta": true, "fullTextSearch": true])
    }

    @Test("a cached copy that is not a valid document is reported and the default is used")
    func invalidCachedBody() async {
        let cache = MemoryConfigCache(CachedConfig(body: Data("[]".utf8), etag: "\"bad\"", fetchedAt: Date()))
        let transport = InMemoryTransport([Fixture.json(#"{"minVersion":"1.0.0"}"#)])
        let provider = await Fixture.provider(transport: transport, cache: cache)
        #expect(provider.current.source == .default)
        #expect(
            provider.cacheProblem == .invalidDocument(source: "cached", detail: "(root): expected object, found array"))
        // The bad copy's validators are never sent: the server must send the whole document.
        _ = await provider.refresh()
        #expect(transport.requests.first?.headers["If-None-Match"] == nil)
    }

    @Test("every leaf is listed with its dotted key, value and source")
    func entries() async {
        let cache = MemoryConfigCache(
            CachedConfig(body: Data(#"{"rollouts":{"newRenderer":50},"theme":{}}"#.utf8), fetchedAt: Date()))
        let provider = await Fixture.provider(transport: InMemoryTransport(), cache: cache)
        let listed = provider.entries.map { "\($0.key)=\($0.value) (\($0.source.rawValue))" }
        #expect(
            listed == [
                #"configURL="https://config.example/tidings.json" (default)"#,
                "features.fullTextSearch=true (default)",
                "maxConcurrentRefreshes=8 (default)",
                #"minVersion="1.0.0" (default)"#,
                "refreshIntervalMinutes=720 (default)",
                "rollouts.newRenderer=50 (cached)",
                "theme={} (cached)",
            ])
        #expect(provider.value(forKey: "features")?.value == .object(["fullTextSearch": .bool(true)]))
        #expect(provider.value(forKey: "nope") == nil)
        #expect(provider.value(forKey: "features.nope") == nil)
    }

    @Test("a successful refresh activates, persists, records, and sends the changed dotted keys to every subscriber")
    func refreshPublishes() async throws {
        let clock = ManualClock()
        let cache = MemoryConfigCache()
        let transport = InMemoryTransport([
            Fixture.json(
                #"{"minVersion":"1.0.0","features":{"fullTextSearch":false},"rollouts":{"newRenderer":25},"motd":"hi"}"#,
                etag: "\"v2\"")
        ])
        let provider = await Fixture.provider(transport: transport, cache: cache, clock: clock)
        let first = provider.updates()
        let second = provider.updates()

        let outcome = await provider.refresh()

        #expect(outcome == .updated(changedKeys: ["features.fullTextSearch", "motd"]))
        #expect(provider.current.source == .remote)
        #expect(
            provider.value(forKey: "motd")
                == ConfigValue(key: "motd", value: .string("hi"), source: .remote, fetchedAt: clock.now))
        #expect(provider.value(forKey: "minVersion")?.source == .remote)
        #expect(provider.value(forKey: "maxConcurrentRefreshes")?.source == .default)
        #expect(cache.document?.etag == "\"v2\"")
        #expect(cache.document?.fetchedAt == clock.now)
        #expect(provider.lastRefresh == ConfigRefreshRecord(at: clock.now, outcome: outcome))
        #expect(provider.lastRefresh?.result == "ok: 2 keys changed")
        for stream in [first, second] {
            var iterator = stream.makeAsyncIterator()
            let update = try #require(await iterator.next())
            #expect(update.changedKeys == ["features.fullTextSearch", "motd"])
            #expect(update.snapshot.config.features["fullTextSearch"] == false)
        }
    }

    @Test("a 304 keeps the values, counts as success, sends the validators and re-stamps the fetch time")
    func notModified() async {
        let clock = ManualClock()
        let cached = CachedConfig(
            body: Data(#"{"minVersion":"1.1.0"}"#.utf8), etag: "\"v1\"", lastModified: "Sat, 13 Mar 2021 09:00:00 GMT",
            fetchedAt: clock.now.addingTimeInterval(-86_400), sourceURL: Fixture.url)
        let cache = MemoryConfigCache(cached)
        let transport = InMemoryTransport([InMemoryTransport.Stub(status: 304)])
        let provider = await Fixture.provider(transport: transport, cache: cache, clock: clock)
        let before = provider.current.config

        #expect(await provider.refresh() == .notModified)
        #expect(transport.requests.first?.headers["If-None-Match"] == "\"v1\"")
        #expect(transport.requests.first?.headers["If-Modified-Since"] == "Sat, 13 Mar 2021 09:00:00 GMT")
        #expect(provider.current.config == before)
        #expect(provider.current.source == .remote)
        #expect(provider.current.fetchedAt == clock.now)
        #expect(cache.document?.fetchedAt == clock.now)
        #expect(cache.document?.etag == "\"v1\"")
        #expect(provider.lastRefresh?.result == "not modified")
    }

    @Test(
        "validators go only to the URL the cached copy came from: another URL gets an unconditional request",
        arguments: [URL(string: "https://old-config.example/tidings.json"), nil])
    func validatorsFollowTheirURL(source: URL?) async {
        let clock = ManualClock()
        let cached = CachedConfig(
            body: Data(#"{"minVersion":"1.1.0"}"#.utf8), etag: "\"old\"", lastModified: "Sat, 13 Mar 2021 09:00:00 GMT",
            fetchedAt: clock.now.addingTimeInterval(-86_400), sourceURL: source)
        let cache = MemoryConfigCache(cached)
        let transport = InMemoryTransport([
            Fixture.json(#"{"minVersion":"1.2.0"}"#, etag: "\"new\""), .init(status: 304),
        ])
        let provider = await Fixture.provider(transport: transport, cache: cache, clock: clock)

        #expect(await provider.refresh(force: true) == .updated(changedKeys: ["minVersion"]))
        #expect(transport.requests[0].headers["If-None-Match"] == nil)
        #expect(transport.requests[0].headers["If-Modified-Since"] == nil)
        #expect(cache.document?.sourceURL == Fixture.url)
        // The document fetched from this URL is then confirmed with its own validators.
        #expect(await provider.refresh(force: true) == .notModified)
        #expect(transport.requests[1].headers["If-None-Match"] == "\"new\"")
    }

    @Test("a failed refresh is the last attempt a later run shows; throttling still counts from the last fetch")
    func lastAttemptOutlivesTheRun() async {
        let clock = ManualClock()
        let cached = CachedConfig(
            body: Data(#"{"minVersion":"1.1.0"}"#.utf8), fetchedAt: clock.now.addingTimeInterval(-86_400),
            sourceURL: Fixture.url)
        let cache = MemoryConfigCache(cached)
        let transport = InMemoryTransport([InMemoryTransport.Stub(status: 500)])
        let first = await Fixture.provider(transport: transport, cache: cache, clock: clock)
        #expect(await first.lastAttempt() == ConfigAttempt(at: cached.fetchedAt, result: "ok"))
        guard case .failed = await first.refresh(force: true) else {
            Issue.record("expected a failure")
            return
        }
        clock.advance(by: 60)
        let later = await Fixture.provider(transport: transport, cache: cache, clock: clock)
        let attempt = await later.lastAttempt()
        #expect(attempt?.at == clock.now.addingTimeInterval(-60))
        #expect(attempt?.result.hasPrefix("error: ") == true)
        #expect(later.lastRefresh?.at == cached.fetchedAt)
    }

    @Test("each fault keeps the last good configuration and reports one reason", arguments: Fault.allCases)
    func faultsKeepLastGood(fault: Fault) async {
        let clock = ManualClock()
        let good = CachedConfig(body: Data(#"{"minVersion":"1.1.0","motd":"good"}"#.utf8), fetchedAt: clock.now)
        let cache = MemoryConfigCache(good)
        let transport = InMemoryTransport([fault.stub])
        let loader = HTTPConfigLoader(transport: transport, sleep: fault.sleep, now: clock.function)
        let provider = await Fixture.provider(transport: transport, cache: cache, clock: clock, remote: loader)
        let before = provider.current

        let outcome = await provider.refresh(force: true)

        #expect(outcome == .failed(fault.expected))
        #expect(provider.current == before)
        #expect(provider.value(forKey: "motd")?.value == .string("good"))
        #expect(cache.writes == 0)
        #expect(provider.lastRefresh?.result == "error: " + (fault.expected.errorDescription ?? ""))
    }

    @Test("a cache that cannot be written does not fail the refresh; it is a warning")
    func persistFailure() async {
        let transport = InMemoryTransport([Fixture.json(#"{"minVersion":"1.0.1"}"#)])
        let provider = await Fixture.provider(transport: transport, cache: MemoryConfigCache(failWrites: true))
        #expect(await provider.refresh() == .updated(changedKeys: ["minVersion"]))
        #expect(provider.lastRefresh?.warnings == ["cannot save the configuration to memory: disk full"])
    }
}
