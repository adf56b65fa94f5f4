public import Foundation
public import Models
import Networking
import Synchronization

/// The remote configuration of the app: in force from the first instant (the cached copy,
/// else the bundled default), refreshed from the server on demand, and published to
/// subscribers when it changes.
///
/// - `refresh(force:)` is single-flight: callers arriving while a fetch runs share its request
///   and its outcome. A cancelled caller stops waiting at once; the fetch itself is cancelled
///   when every caller waiting for it has been, so quitting never waits for a slow server.
/// - A non-forced refresh is throttled to one per minimum fetch interval
///   (`refreshIntervalMinutes` when the configuration sets it, else the interval given at
///   creation, 12 hours by default), counted from the last fetch the server answered.
/// - A successful fetch is activated, persisted and published with its changed keys; a failed
///   one keeps the configuration in force and says why.
///
/// Reading (`current`, `value(forKey:)`, `isEnabled(feature:)`, …) is synchronous and never
/// waits for a refresh.
public actor ConfigProvider {
    /// Where the configuration is fetched from; `nil` when there is no remote source (a refresh
    /// then fails with `ConfigError.noRemoteSource` and records nothing).
    public nonisolated let configURL: URL?
    /// This installation's id, which places it in rollouts.
    public nonisolated let installationID: String
    /// Why the cached copy could not be used at start-up, when it could not (the bundled
    /// default is then in force until a refresh succeeds).
    public nonisolated let cacheProblem: ConfigError?

    let local: any LocalConfigLoading
    private let remote: any RemoteConfigLoading
    private let now: @Sendable () -> Date
    private let defaultInterval: TimeInterval
    /// What synchronous readers see; written only by the actor.
    nonisolated let shared: Mutex<SharedState>
    /// The activated document with its validators; `nil` while the defaults are in force.
    private var active: CachedConfig?
    private var inFlight: RefreshFlight?
    private var flightsStarted = 0
    private let activity: (@Sendable (ConfigRefreshActivity) -> Void)?

    private typealias Activation = (changed: [String], warnings: [String])

    struct SharedState: Sendable {
        var snapshot: ConfigSnapshot
        var lastRefresh: ConfigRefreshRecord?
        /// This run's last refresh attempt.
        var attempt: ConfigAttempt?
        var subscribers: [UUID: AsyncStream<ConfigUpdate>.Continuation] = [:]
    }

    /// Creates a provider that starts from `cached` when it is a valid document, else from
    /// `defaults`. Nothing is fetched until `refresh(force:)`.
    ///
    /// - Parameters:
    ///   - configURL: the chosen URL (see `ConfigURLSelection.choose`).
    ///   - defaults: the bundled default (`BundledConfig.load()`).
    ///   - cached: the copy `local` returned at start-up, if any.
    ///   - cacheProblem: why reading the cache failed, if it did; reported by `cacheProblem`.
    ///   - local: where activated documents are persisted.
    ///   - remote: where documents are fetched.
    ///   - installationID: this installation's id (`InstallationID.loadOrCreate(home:)`).
    ///   - minimumFetchInterval: the throttle when the configuration sets no
    ///     `refreshIntervalMinutes`.
    ///   - activity: told when a refresh starts, is joined and ends (for diagnostics).
    ///   - now: the current time (tests pass a clock they control).
    public init(
        configURL: URL?, defaults: AppConfig, cached: CachedConfig?, cacheProblem: ConfigError? = nil,
        local: any LocalConfigLoading, remote: any RemoteConfigLoading, installationID: String,
        minimumFetchInterval: TimeInterval = 12 * 3600, now: @escaping @Sendable () -> Date = { Date() },
        activity: (@Sendable (ConfigRefreshActivity) -> Void)? = nil
    ) {
        self.activity = activity
        self.configURL = configURL
        self.installationID = installationID
        self.local = local
        self.remote = remote
        self.now = now
        self.defaultInterval = minimumFetchInterval
        var snapshot = ConfigSnapshot(defaults: defaults)
        var problem = cacheProblem
        var lastRefresh: ConfigRefreshRecord?
        if let cached {
            do {
                let document = try ConfigDocument.decode(cached.body, source: "cached")
                snapshot = ConfigSnapshot(
                    defaults: defaults, document: document, source: .cached, fetchedAt: cached.fetchedAt)
                active = cached
                lastRefresh = ConfigRefreshRecord(at: cached.fetchedAt, outcome: .updated(changedKeys: []))
            } catch {
                problem = error
            }
        }
        self.cacheProblem = problem
        shared = Mutex(SharedState(snapshot: snapshot, lastRefresh: lastRefresh))
    }

    /// Reads the cache through `local` and creates the provider from it: a missing cache
    /// starts from `defaults`; an unreadable or invalid one too, reported by `cacheProblem`.
    public static func start(
        configURL: URL?, defaults: AppConfig, local: any LocalConfigLoading, remote: any RemoteConfigLoading,
        installationID: String, minimumFetchInterval: TimeInterval = 12 * 3600,
        now: @escaping @Sendable () -> Date = { Date() }, activity: (@Sendable (ConfigRefreshActivity) -> Void)? = nil
    ) async -> ConfigProvider {
        var cached: CachedConfig?
        var problem: ConfigError?
        do { cached = try await local.fetch() } catch { problem = error }
        return ConfigProvider(
            configURL: configURL, defaults: defaults, cached: cached, cacheProblem: problem, local: local,
            remote: remote, installationID: installationID, minimumFetchInterval: minimumFetchInterval, now: now,
            activity: activity)
    }

    /// Fetches the configuration unless the minimum fetch interval has not passed (`force`
    /// bypasses it), activates and persists a new document, and publishes its changes.
    ///
    /// A call made while a fetch is running waits for that fetch and returns its outcome.
    public func refresh(force: Bool = false) async -> ConfigRefreshOutcome {
        // A fetch whose callers have all left is winding down; a new caller waits for it to end
        // rather than share its cancellation or race it with a second fetch.
        while let inFlight, inFlight.isAbandoned {
            await inFlight.finished()
        }
        if Task.isCancelled { return .failed(.cancelled) }
        guard configURL != nil else { return .failed(.noRemoteSource) }
        if let inFlight {
            activity?(.joined)
            return await inFlight.outcome()
        }
        if !force, let next = nextRefreshAllowed, next > now() {
            return .throttled(until: next)
        }
        flightsStarted += 1
        activity?(.started)
        let number = flightsStarted
        let activity = self.activity
        let flight = RefreshFlight(
            number: number,
            task: Task {
                let outcome = await self.performRefresh(flight: number)
                activity?(.finished(outcome))
                return outcome
            })
        inFlight = flight
        return await flight.outcome()
    }

    private func performRefresh(flight number: Int) async -> ConfigRefreshOutcome {
        defer { if inFlight?.number == number { inFlight = nil } }
        // Validators go only to the URL the document in hand came from: another server's 304
        // would confirm a document it never sent.
        guard let configURL else { return .failed(.noRemoteSource) }
        let sameSource = active?.sourceURL == configURL
        let validators = ConfigValidators(
            etag: sameSource ? active?.etag : nil, lastModified: sameSource ? active?.lastModified : nil)
        var warnings: [String] = []
        let outcome: ConfigRefreshOutcome
        do {
            switch try await remote.fetch(from: configURL, validators: validators) {
            case .notModified:
                guard var document = active else {
                    throw ConfigError.invalidDocument(
                        source: "remote", detail: "the server answered 304 Not Modified to an unconditional request")
                }
                document.fetchedAt = now()
                warnings += await activate(document, config: nil).warnings
                outcome = .notModified
            case .modified(let config, let document):
                let (changed, problems) = await activate(document, config: config)
                warnings += problems
                outcome = .updated(changedKeys: changed)
            }
        } catch let error as ConfigError {
            outcome = .failed(error)
        } catch {
            outcome = .failed(.unreachable(url: configURL, reason: error.localizedDescription))
        }
        // A fetch stopped because nobody waits for it any more says nothing about the server.
        if outcome == .failed(.cancelled) { return outcome }
        let record = ConfigRefreshRecord(at: now(), outcome: outcome, warnings: warnings)
        let attempt = ConfigAttempt(at: record.at, result: record.result)
        shared.withLock {
            $0.lastRefresh = record
            $0.attempt = attempt
        }
        await local.recordAttempt(attempt)
        return outcome
    }

    /// Puts `document` in force (re-stamping the current one when `config` is nil), persists
    /// it, and publishes the change; returns the changed keys and any warnings.
    private func activate(_ document: CachedConfig, config: AppConfig?) async -> Activation {
        active = document
        let (changed, snapshot) = shared.withLock { state -> ([String], ConfigSnapshot) in
            let previous = state.snapshot
            let next = ConfigSnapshot(
                defaults: previous.defaults, document: config ?? previous.document, source: .remote,
                fetchedAt: document.fetchedAt)
            state.snapshot = next
            let changed = next.changedKeys(since: previous)
            if !changed.isEmpty {
                let update = ConfigUpdate(snapshot: next, changedKeys: changed)
                for continuation in state.subscribers.values { continuation.yield(update) }
            }
            return (changed, next)
        }
        var warnings: [String] = []
        if let problem = snapshot.minVersionProblem { warnings.append(problem) }
        do {
            try await local.persist(document)
        } catch {
            warnings.append(error.errorDescription ?? "\(error)")
        }
        return (changed, warnings)
    }

    /// When a non-forced refresh will next fetch; `nil` when it may fetch now because the
    /// server has never answered.
    public nonisolated var nextRefreshAllowed: Date? {
        let snapshot = current
        guard let fetchedAt = snapshot.fetchedAt else { return nil }
        let minutes = snapshot.config.refreshIntervalMinutes.flatMap { $0 > 0 ? $0 : nil }
        return fetchedAt.addingTimeInterval(minutes.map { TimeInterval($0) * 60 } ?? defaultInterval)
    }

    /// A new stream of every later change of the configuration in force, for one subscriber.
    /// It ends when the subscriber stops iterating.
    public nonisolated func updates() -> AsyncStream<ConfigUpdate> {
        let (stream, continuation) = AsyncStream<ConfigUpdate>.makeStream()
        let id = UUID()
        shared.withLock { $0.subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.shared.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}

/// One fetch shared by every caller of `refresh` that arrived while it ran. A caller that is
/// cancelled stops waiting at once; the fetch is cancelled when the last waiting caller is.
private final class RefreshFlight: Sendable {
    private struct State {
        var outcome: ConfigRefreshOutcome?
        var waiters: [Int: CheckedContinuation<ConfigRefreshOutcome, Never>] = [:]
        /// Callers cancelled before their continuation was in place.
        var cancelledEarly: Set<Int> = []
        var live = 0
        var nextCaller = 0
        var abandoned = false
    }

    let number: Int
    private let task: Task<ConfigRefreshOutcome, Never>
    private let state = Mutex(State())

    init(number: Int, task: Task<ConfigRefreshOutcome, Never>) {
        self.number = number
        self.task = task
        Task { await self.deliver() }
    }

    /// Hands the fetch's outcome to every caller still waiting.
    private func deliver() async {
        let outcome = await task.value
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume(returning: outcome) }
    }

    /// Whether every caller left, so the fetch was cancelled.
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Waits for the fetch's outcome; a cancelled caller gets `.failed(.cancelled)` at once.
    func outcome() async -> ConfigRefreshOutcome {
        let caller = state.withLock { state in
            state.nextCaller += 1
            state.live += 1
            return state.nextCaller
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: ConfigRefreshOutcome? = state.withLock { state in
                    if let outcome = state.outcome { return outcome }
                    if state.cancelledEarly.remove(caller) != nil { return .failed(.cancelled) }
                    state.waiters[caller] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let (waiter, abandon) = state.withLock { state in
                let waiter = state.waiters.removeValue(forKey: caller)
                if waiter == nil, state.outcome == nil { state.cancelledEarly.insert(caller) }
                state.live -= 1
                let abandon = state.live == 0 && state.outcome == nil && !state.abandoned
                if abandon { state.abandoned = true }
                return (waiter, abandon)
            }
            waiter?.resume(returning: .failed(.cancelled))
            if abandon { task.cancel() }
        }
    }

    /// Waits until the fetch has ended, whatever its outcome.
    func finished() async {
        _ = await task.value
    }
}
