import Foundation
import Models
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

@testable import Config

/// What a fake config server saw.
private final class ServerLog: Sendable {
    private let state = Mutex((requests: 0, cancelled: 0))
    var requests: Int { state.withLock { $0.requests } }
    var cancelled: Int { state.withLock { $0.cancelled } }
    func request() -> Int {
        state.withLock {
            $0.requests += 1
            return $0.requests
        }
    }
    func cancel() { state.withLock { $0.cancelled += 1 } }
}

@Suite("ConfigProvider: cancelling a refresh")
struct RefreshCancellationTests {
    @Test("cancelling the only caller cancels the fetch; nothing is recorded; the next refresh fetches afresh")
    func lastCallerCancelsFetch() async throws {
        let log = ServerLog()
        let started = Gate()
        let transport = InMemoryTransport { request throws(NetworkError) in
            if log.request() == 1 {
                started.open()
                // Held far beyond any test's patience; only cancellation ends it early.
                do { try await Task.sleep(for: .seconds(300)) } catch {
                    log.cancel()
                    throw .cancelled
                }
            }
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"a":1}"#.utf8),
                url: request.url)
        }
        let provider = await Fixture.provider(transport: transport)
        let caller = Task { await provider.refresh(force: true) }
        await started.wait()
        caller.cancel()
        #expect(await caller.value == .failed(.cancelled))
        #expect(provider.lastRefresh == nil)  // a cancelled fetch says nothing about the server

        // The next caller waits for the abandoned fetch to wind down, then makes its own.
        #expect(await provider.refresh(force: true) == .updated(changedKeys: ["a"]))
        #expect(log.cancelled == 1)
        #expect(log.requests == 2)
        #expect(provider.lastRefresh?.outcome == .updated(changedKeys: ["a"]))
    }

    @Test("a cancelled caller stops waiting at once while the others keep the fetch and get its outcome")
    func otherCallersKeepFetch() async throws {
        let log = ServerLog()
        let started = Gate()
        let release = Gate()
        let transport = InMemoryTransport { request throws(NetworkError) in
            _ = log.request()
            started.open()
            await release.wait()
            if Task.isCancelled { log.cancel() }
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"a":1}"#.utf8),
                url: request.url)
        }
        // Releases the server in the end even if cancellation does not return at once, so a
        // regression fails below instead of hanging the suite. Long, because on a busy machine
        // the steps below can take tens of seconds; only a regression waits for it.
        let backstop = Task {
            try await Task.sleep(for: .seconds(180))
            release.open()
        }
        defer { backstop.cancel() }
        let activity = ActivityLog()
        let provider = await Fixture.provider(transport: transport, activity: activity)
        let staying = Task { await provider.refresh(force: true) }
        await started.wait()
        let leaving = Task { await provider.refresh(force: true) }
        await activity.waitForJoins(1)
        leaving.cancel()
        #expect(await leaving.value == .failed(.cancelled))
        #expect(!release.isOpen, "the cancelled caller waited for the fetch to end")

        release.open()
        #expect(await staying.value == .updated(changedKeys: ["a"]))
        #expect(log.requests == 1)
        #expect(log.cancelled == 0)
    }
}
