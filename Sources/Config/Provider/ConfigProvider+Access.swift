public import Foundation
public import Models
import Synchronization

extension ConfigProvider {
    /// The configuration in force now.
    public nonisolated var current: ConfigSnapshot { shared.withLock { $0.snapshot } }

    /// The last refresh that reached the server: at start-up, the cached copy's fetch;
    /// `nil` when there has been none.
    public nonisolated var lastRefresh: ConfigRefreshRecord? { shared.withLock { $0.lastRefresh } }

    /// The last refresh attempt, failed ones included, whichever run made it (the store keeps
    /// it between runs, read only when asked, so start-up does not pay for it); else the cached
    /// copy's fetch. `nil` when there has been none.
    public func lastAttempt() async -> ConfigAttempt? {
        let (fetched, ours) = shared.withLock { state in
            (state.lastRefresh.map { ConfigAttempt(at: $0.at, result: $0.result) }, state.attempt)
        }
        var recorded = ours
        if recorded == nil { recorded = await local.lastAttempt() }
        let attempts = [fetched, recorded].compactMap { $0 }
        return attempts.max { $0.at < $1.at }
    }

    /// Every leaf value in force, dotted and sorted, with its source and fetch time.
    public nonisolated var entries: [ConfigValue] { current.entries }

    /// The value at a dotted path (`features.fullTextSearch`), or `nil` when nothing sets it.
    public nonisolated func value(forKey key: String) -> ConfigValue? { current.value(forKey: key) }

    /// The minimum app version; `nil` when none is set or it is malformed.
    public nonisolated var minVersion: SemanticVersion? { current.minVersion }

    /// Why the `minVersion` in force is ignored, when it is not a version.
    public nonisolated var minVersionProblem: String? { current.minVersionProblem }

    /// Whether `appVersion` is below the minimum version (never for a malformed minimum).
    public nonisolated func isUpdateRequired(appVersion: SemanticVersion) -> Bool {
        current.isUpdateRequired(appVersion: appVersion)
    }

    /// Whether `feature` is on for this installation (see `ConfigSnapshot.isEnabled`).
    public nonisolated func isEnabled(feature: String) -> Bool {
        current.isEnabled(feature: feature, installationID: installationID)
    }

    /// Minutes between automatic refreshes, as configured.
    public nonisolated var refreshIntervalMinutes: Int? { current.config.refreshIntervalMinutes }

    /// How many feeds refresh at once, as configured.
    public nonisolated var maxConcurrentRefreshes: Int? { current.config.maxConcurrentRefreshes }

    /// How many connections the network transport opens to one host at most, as configured.
    public nonisolated var maxConnectionsPerHost: Int? { current.config.maxConnectionsPerHost }

    /// The longest a server's `Retry-After` may defer a feed, in minutes, as configured.
    public nonisolated var maxRetryAfterMinutes: Int? { current.config.maxRetryAfterMinutes }

    /// Feature switches by name.
    public nonisolated var features: [String: Bool] { current.config.features }

    /// Rollout percentages by feature name.
    public nonisolated var rollouts: [String: Int] { current.config.rollouts }

    /// The `configURL` the configuration in force names (the provider itself fetches from
    /// `configURL`, chosen at creation).
    public nonisolated var configuredURL: URL? { current.config.configURL }
}
