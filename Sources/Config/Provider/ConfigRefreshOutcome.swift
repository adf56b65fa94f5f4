public import Foundation

/// What one `ConfigProvider.refresh(force:)` did.
public enum ConfigRefreshOutcome: Sendable, Hashable {
    /// A new document was fetched and activated; the dotted keys whose values changed (empty
    /// when the server sent the same values again).
    case updated(changedKeys: [String])
    /// The server confirmed the copy in hand (304); nothing changed.
    case notModified
    /// The fetch failed; the configuration in force was kept.
    case failed(ConfigError)
    /// Not fetched: the minimum fetch interval has not passed. A forced refresh bypasses it.
    case throttled(until: Date)

    /// Whether the configuration in force is now confirmed by the server (updated or 304).
    public var isSuccess: Bool {
        switch self {
        case .updated, .notModified: true
        case .failed, .throttled: false
        }
    }

    /// The keys that changed; empty unless `.updated`.
    public var changedKeys: [String] {
        if case .updated(let keys) = self { keys } else { [] }
    }

    /// One line for `config show` and `feed list`-style displays: `ok`, `ok: 2 keys changed`,
    /// `not modified`, `error: <reason>`, `throttled until <RFC 3339 date>`.
    public var summary: String {
        switch self {
        case .updated(let keys) where keys.isEmpty: "ok"
        case .updated(let keys): "ok: \(keys.count) \(keys.count == 1 ? "key" : "keys") changed"
        case .notModified: "not modified"
        case .failed(let error): "error: " + (error.errorDescription ?? "\(error)")
        case .throttled(let date): "throttled until " + ISO8601DateFormatter().string(from: date)
        }
    }
}

/// The last refresh that reached the server (throttled calls are not recorded).
public struct ConfigRefreshRecord: Sendable, Hashable {
    /// When it finished.
    public var at: Date
    /// What it did.
    public var outcome: ConfigRefreshOutcome
    /// Things that went wrong without failing it: a malformed `minVersion` that is ignored, a
    /// cache that could not be written.
    public var warnings: [String]

    public init(at: Date, outcome: ConfigRefreshOutcome, warnings: [String] = []) {
        self.at = at
        self.outcome = outcome
        self.warnings = warnings
    }

    /// `outcome.summary`, for display.
    public var result: String { outcome.summary }
}

/// A change of the configuration in force, sent to every subscriber of
/// `ConfigProvider.updates()`.
public struct ConfigUpdate: Sendable, Hashable {
    /// The configuration now in force.
    public var snapshot: ConfigSnapshot
    /// The dotted keys whose values changed, sorted; never empty.
    public var changedKeys: [String]

    public init(snapshot: ConfigSnapshot, changedKeys: [String]) {
        self.snapshot = snapshot
        self.changedKeys = changedKeys
    }
}

/// What a refresh is doing, as it happens, for diagnostics (the program logs it under
/// `TIDINGS_LOG=debug`).
public enum ConfigRefreshActivity: Sendable, Hashable {
    /// A caller started a fetch.
    case started
    /// A caller joined the fetch already in flight, and will get its outcome.
    case joined
    /// A fetch ended with this outcome.
    case finished(ConfigRefreshOutcome)
}
