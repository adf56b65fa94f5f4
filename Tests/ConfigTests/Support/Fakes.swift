import Config
import Foundation
import Models
import Networking
import NetworkingTestSupport
import Synchronization

/// A clock a test moves by hand.
final class ManualClock: Sendable {
    private let date: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { date = Mutex(start) }
    var now: Date { date.withLock { $0 } }
    func advance(by seconds: TimeInterval) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var function: @Sendable () -> Date { { self.now } }
}

/// A cache in memory that counts its writes and can be told to fail.
final class MemoryConfigCache: LocalConfigLoading {
    private let state: Mutex<(document: CachedConfig?, writes: Int, failWrites: Bool)>
    init(_ document: CachedConfig? = nil, failWrites: Bool = false) {
        state = Mutex((document, 0, failWrites))
    }
    var document: CachedConfig? { state.withLock { $0.document } }
    var writes: Int { state.withLock { $0.writes } }
    func fetch() async throws(ConfigError) -> CachedConfig? { document }
    func persist(_ document: CachedConfig) async throws(ConfigError) {
        let fail = state.withLock { state -> Bool in
            guard !state.failWrites else { return true }
            state.document = document
            state.writes += 1
            return false
        }
        if fail { throw .cacheWriteFailed(location: "memory", detail: "disk full") }
    }
    private let attempt = Mutex<ConfigAttempt?>(nil)
    func lastAttempt() async -> ConfigAttempt? { attempt.withLock { $0 } }
    func recordAttempt(_ value: ConfigAttempt) async { attempt.withLock { $0 = value } }
}

/// A gate tasks wait at until the test opens it.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
    var isOpen: Bool { state.withLock { $0.open } }
    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

enum Fixture {
    static let url = URL(string: "https://config.example/tidings.json")!
    static let defaults = AppConfig(values: [
        "configURL": .string("https://config.example/tidings.json"),
        "minVersion": .string("1.0.0"),
        "refreshIntervalMinutes": .integer(720),
        "maxConcurrentRefreshes": .integer(8),
        "features": .object(["fullTextSearch": .bool(true)]),
        "rollouts": .object(["newRenderer": .integer(25)]),
    ])

    static func json(_ text: String, etag: String? = nil, lastModified: String? = nil) -> InMemoryTransport.Stub {
        var stub = InMemoryTransport.Stub.json(text)
        stub.headers["ETag"] = etag
        stub.headers["Last-Modified"] = lastModified
        return stub
    }

    /// A loader whose timeout never fires in a test (on a loaded machine an await can resume
    /// more than the default 10 s late); the timeout has its own tests.
    static func loader(_ transport: InMemoryTransport, clock: ManualClock = ManualClock()) -> HTTPConfigLoader {
        HTTPConfigLoader(transport: transport, timeout: .seconds(3_600), now: clock.function)
    }

    static func provider(
        transport: InMemoryTransport, cache: MemoryConfigCache = MemoryConfigCache(),
        clock: ManualClock = ManualClock(),
        remote: (any RemoteConfigLoading)? = nil, installationID: String = "test-installation",
        activity: ActivityLog? = nil
    ) async -> ConfigProvider {
        var report: (@Sendable (ConfigRefreshActivity) -> Void)?
        if let activity { report = { activity.record($0) } }
        return await ConfigProvider.start(
            configURL: url, defaults: defaults, local: cache, remote: remote ?? loader(transport, clock: clock),
            installationID: installationID, now: clock.function, activity: report)
    }
}

/// What a provider reported of its refreshes, and a wait for a number of joins.
final class ActivityLog: Sendable {
    private let events = Mutex<[ConfigRefreshActivity]>([])
    private let joinWaiters = Mutex<[(count: Int, gate: Gate)]>([])

    var all: [ConfigRefreshActivity] { events.withLock { $0 } }
    var joined: Int { all.filter { $0 == .joined }.count }

    func record(_ event: ConfigRefreshActivity) {
        let joins = events.withLock { events -> Int in
            events.append(event)
            return events.filter { $0 == .joined }.count
        }
        joinWaiters.withLock { waiters in
            for waiter in waiters where waiter.count <= joins { waiter.gate.open() }
            waiters.removeAll { $0.count <= joins }
        }
    }

    /// Returns once `count` callers have joined a refresh in flight.
    func waitForJoins(_ count: Int) async {
        let gate = Gate()
        joinWaiters.withLock { $0.append((count, gate)) }
        if joined >= count { gate.open() }
        await gate.wait()
    }
}
