import Foundation
import Models
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

@testable import Config

@Suite("ConfigProvider: single flight, throttling and subscribers")
struct RefreshConcurrencyTests {
    @Test("50 simultaneous refreshes make one request and share its outcome")
    func singleFlight() async throws {
        let gate = Gate()
        let transport = InMemoryTransport { request in
            await gate.wait()
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"minVersion":"1.5.0"}"#.utf8),
                url: request.url)
        }
        // The gate holds the fetch until every caller has joined, which can take seconds on a
        // loaded machine: the loader's own time limit must not end the fetch first.
        let activity = ActivityLog()
        let provider = await Fixture.provider(
            transport: transport, remote: HTTPConfigLoader(transport: transport, timeout: .seconds(300)),
            activity: activity)

        let outcomes = await withTaskGroup(of: ConfigRefreshOutcome.self) { group in
            for _ in 0..<50 { group.addTask { await provider.refresh(force: true) } }
            // Open the gate only once the 49 other callers have joined the refresh in flight (the
            // provider says so as each joins).
            await activity.waitForJoins(49)
            gate.open()
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(activity.all.filter { $0 == .started } == [.started])
        #expect(activity.joined == 49)
        #expect(transport.requests.count == 1)
        #expect(outcomes.count == 50)
        #expect(Set(outcomes) == [.updated(changedKeys: ["minVersion"])])
    }

    @Test("a non-forced refresh waits for refreshIntervalMinutes after the last fetch; force bypasses it")
    func throttledByConfiguredInterval() async {
        let clock = ManualClock()
        let transport = InMemoryTransport([
            Fixture.json(#"{"refreshIntervalMinutes":30}"#), Fixture.json(#"{"refreshIntervalMinutes":30,"a":1}"#),
            Fixture.json(#"{"refreshIntervalMinutes":30,"a":2}"#),
        ])
        let provider = await Fixture.provider(transport: transport, clock: clock)
        let fetched = clock.now
        #expect(await provider.refresh() == .updated(changedKeys: ["refreshIntervalMinutes"]))

        clock.advance(by: 29 * 60)
        let next = fetched.addingTimeInterval(30 * 60)
        #expect(await provider.refresh() == .throttled(until: next))
        #expect(provider.nextRefreshAllowed == next)
        #expect(transport.requests.count == 1)

        #expect(await provider.refresh(force: true) == .updated(changedKeys: ["a"]))
        #expect(await provider.refresh() == .throttled(until: clock.now.addingTimeInterval(30 * 60)))

        clock.advance(by: 30 * 60)
        #expect(await provider.refresh() == .updated(changedKeys: ["a"]))
        #expect(transport.requests.count == 3)
    }

    @Test("without refreshIntervalMinutes the minimum interval is 12 hours, counted from the cached fetch")
    func throttledByDefaultInterval() async {
        let clock = ManualClock()
        var defaults = Fixture.defaults
        defaults.values["refreshIntervalMinutes"] = nil
        let cache = MemoryConfigCache(
            CachedConfig(body: Data("{}".utf8), fetchedAt: clock.now.addingTimeInterval(-3600)))
        let transport = InMemoryTransport([Fixture.json("{}")])
        let provider = await ConfigProvider.start(
            configURL: Fixture.url, defaults: defaults, local: cache, remote: Fixture.loader(transport, clock: clock),
            installationID: "x", now: clock.function)
        #expect(await provider.refresh() == .throttled(until: clock.now.addingTimeInterval(11 * 3600)))
        clock.advance(by: 11 * 3600)
        #expect(await provider.refresh() == .updated(changedKeys: []))
    }

    @Test("a failed refresh does not start the interval: the next call tries again")
    func failureDoesNotThrottle() async {
        let transport = InMemoryTransport([InMemoryTransport.Stub(status: 503), Fixture.json(#"{"a":1}"#)])
        let provider = await Fixture.provider(transport: transport)
        guard case .failed = await provider.refresh() else {
            Issue.record("expected a failure")
            return
        }
        #expect(await provider.refresh() == .updated(changedKeys: ["a"]))
    }

    @Test("a subscriber that stops listening is forgotten; the others still get every update")
    func subscriberEnds() async throws {
        let transport = InMemoryTransport([
            Fixture.json(#"{"a":1}"#), Fixture.json(#"{"a":1}"#), Fixture.json(#"{"a":2}"#),
        ])
        let provider = await Fixture.provider(transport: transport)
        let kept = provider.updates()
        do {
            let dropped = provider.updates()
            #expect(provider.shared.withLock { $0.subscribers.count } == 2)
            _ = dropped
        }
        #expect(provider.shared.withLock { $0.subscribers.count } == 1)
        #expect(await provider.refresh(force: true) == .updated(changedKeys: ["a"]))
        #expect(await provider.refresh(force: true) == .updated(changedKeys: []))  // same values: no update sent
        #expect(await provider.refresh(force: true) == .updated(changedKeys: ["a"]))
        var iterator = kept.makeAsyncIterator()
        #expect(await iterator.next()?.snapshot.config["a"] == .integer(1))
        #expect(await iterator.next()?.snapshot.config["a"] == .integer(2))
    }
}
