import CalDAVTestSupport
import DefaultTransport
import Foundation
import Networking
import Testing

@testable import Chores

/// Ctrl-C during `task sync` while another sync (the session's background one) is held up by
/// a server that answers late: the foreground sync ends at once, it does not wait its turn.
@Suite("chore sync cancellation", .serialized, .timeLimit(.minutes(10)))
struct ChoreSyncCancelTests {
    /// The real transport, except that while `holding`, a request waits until `release()` (or
    /// 120 s, so that a regression fails instead of hanging).
    final class HoldingTransport: HTTPTransport, @unchecked Sendable {
        private let inner = makeDefaultTransport()
        let lock = NSLock()
        private var holding = false
        private var released = false
        var held = 0
        /// Requests inside the hold now (neither released nor past the deadline).
        var holdingNow = 0

        func hold() { lock.withLock { holding = true } }
        func release() { lock.withLock { released = true } }
        var wasReleased: Bool { lock.withLock { released } }

        func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
            if lock.withLock({ holding && !released }) {
                lock.withLock {
                    held += 1
                    holdingNow += 1
                }
                let deadline = ContinuousClock.now + .seconds(120)
                while !wasReleased && ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                lock.withLock { holdingNow -= 1 }
            }
            return try await inner.send(request)
        }
    }

    @Test("a cancelled sync waiting behind a held one returns before the held one is answered")
    func cancelWhileWaiting() async throws {
        try await withRadicale { server in
            let chores = try server.makeCalendar("chores")
            let transport = HoldingTransport()
            let home = try ChoreHome(server, transport: transport)
            try await home.setUp(server, chores)
            transport.hold()
            let background = Task { try await home.sync.sync() }
            while transport.lock.withLock({ transport.held }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
            let foreground = Task { () async -> Bool in
                do {
                    _ = try await home.sync.sync()
                } catch {}
                return transport.lock.withLock { transport.holdingNow } == 0
            }
            // Let the foreground sync reach the wait for its turn, then press Ctrl-C.
            try await Task.sleep(for: .milliseconds(200))
            foreground.cancel()
            let heldOneDoneFirst = await foreground.value
            #expect(!heldOneDoneFirst, "the cancelled sync waited for the held one to be answered")
            transport.release()
            _ = try await background.value
        }
    }
}
