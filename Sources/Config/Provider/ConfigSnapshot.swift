public import Foundation
public import Models

/// Where a configuration value came from, in order of precedence.
public enum ConfigSource: String, Sendable, Hashable, CaseIterable {
    /// Fetched from the server during this run.
    case remote
    /// The copy cached by an earlier run.
    case cached
    /// The bundled default (no fetched or cached document sets the key).
    case `default`
}

/// One configuration value with its provenance, as `config get` and `config show` print it.
public struct ConfigValue: Sendable, Hashable {
    /// The dotted path (`minVersion`, `features.fullTextSearch`).
    public var key: String
    public var value: JSONValue
    /// Where it came from.
    public var source: ConfigSource
    /// When the document it came from was fetched; `nil` for the bundled default.
    public var fetchedAt: Date?

    public init(key: String, value: JSONValue, source: ConfigSource, fetchedAt: Date?) {
        self.key = key
        self.value = value
        self.source = source
        self.fetchedAt = fetchedAt
    }
}

/// The configuration in force at one moment: the bundled defaults overlaid by the fetched or
/// cached document, key by key (nested objects are merged, so a document that sets
/// `features.a` keeps the default's `features.b`).
public struct ConfigSnapshot: Sendable, Hashable {
    public let defaults: AppConfig
    /// The fetched or cached document, when there is a good one.
    public let document: AppConfig?
    /// Where `document` came from; `.default` when there is none.
    public let source: ConfigSource
    /// When `document` was fetched; `nil` when there is none.
    public let fetchedAt: Date?
    /// The values in force: `document` over `defaults`.
    public let config: AppConfig

    /// Creates a snapshot; `source` and `fetchedAt` describe `document` and are ignored without it.
    ///
    /// A document's key holding dots names the path it spells: `{"rollouts.newRenderer": 100}`
    /// sets `rollouts.newRenderer`, as `config get` reads it, so it is one value with one
    /// source. Where the same path is also written nested, the dotted key wins.
    public init(
        defaults: AppConfig, document: AppConfig? = nil, source: ConfigSource = .cached, fetchedAt: Date? = nil
    ) {
        let document = document.map { AppConfig(values: Self.expandingDottedKeys($0.values)) }
        self.defaults = defaults
        self.document = document
        self.source = document == nil ? .default : source
        self.fetchedAt = document == nil ? nil : fetchedAt
        guard let document else {
            config = defaults
            return
        }
        config = AppConfig(values: Self.merge(defaults.values, document.values))
    }

    /// The value at a dotted path (a leaf or a whole object), with its source; `nil` when no
    /// layer sets it.
    public func value(forKey key: String) -> ConfigValue? {
        guard let value = config[key] else { return nil }
        return ConfigValue(key: key, value: value, source: source(ofKey: key), fetchedAt: fetchedAt(ofKey: key))
    }

    /// Every leaf value as a dotted path (`features.fullTextSearch`), sorted by key; arrays
    /// and empty objects are leaves.
    public var entries: [ConfigValue] {
        Self.leaves(of: .object(config.values), prefix: nil)
            .map {
                ConfigValue(
                    key: $0.key, value: $0.value, source: source(ofKey: $0.key), fetchedAt: fetchedAt(ofKey: $0.key))
            }
    }

    /// The dotted leaf paths whose values differ from `earlier`'s (added and removed included),
    /// sorted.
    public func changedKeys(since earlier: ConfigSnapshot) -> [String] {
        let before = Dictionary(
            Self.leaves(of: .object(earlier.config.values), prefix: nil), uniquingKeysWith: { a, _ in a })
        let after = Dictionary(Self.leaves(of: .object(config.values), prefix: nil), uniquingKeysWith: { a, _ in a })
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    /// The minimum app version; `nil` when none is set or it is malformed (see
    /// `minVersionProblem`).
    public var minVersion: SemanticVersion? { try? config.minimumVersion() }

    /// Why `minVersion` is ignored, when the document's value is not a version.
    public var minVersionProblem: String? {
        do {
            _ = try config.minimumVersion()
            return nil
        } catch {
            let raw = config["minVersion"]?.description ?? "null"
            return "minVersion \(raw) is not a version number, so no update is required"
        }
    }

    /// Whether `appVersion` is below `minVersion`; never true for a malformed minimum.
    public func isUpdateRequired(appVersion: SemanticVersion) -> Bool {
        minVersion.map { appVersion < $0 } ?? false
    }

    /// Whether `feature` is on for the installation `installationID`: off when `features`
    /// sets it false; otherwise, when `rollouts` has a percentage for it, on for that share of
    /// installations (by a stable hash of the id and the feature); otherwise as `features`
    /// says (off when absent).
    public func isEnabled(feature: String, installationID: String) -> Bool {
        let flag = config.features[feature]
        if flag == false { return false }
        if let percentage = config.rollouts[feature] {
            return RolloutBucket.bucket(feature: feature, installationID: installationID) < percentage
        }
        return flag ?? false
    }

    private func source(ofKey key: String) -> ConfigSource {
        document?[key] != nil ? source : .default
    }

    private func fetchedAt(ofKey key: String) -> Date? {
        document?[key] != nil ? fetchedAt : nil
    }

    /// `top` over `base`; objects present in both are merged member by member.
    /// `values` with every dotted key (at any depth) turned into the nested objects it names.
    private static func expandingDottedKeys(_ values: [String: JSONValue]) -> [String: JSONValue] {
        var plain: [String: JSONValue] = [:]
        var dotted: [String: JSONValue] = [:]
        for (key, value) in values {
            let expandedValue: JSONValue
            if case .object(let members) = value {
                expandedValue = .object(expandingDottedKeys(members))
            } else {
                expandedValue = value
            }
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count > 1, parts.allSatisfy({ !$0.isEmpty }) else {
                plain[key] = expandedValue
                continue
            }
            let nested = parts.dropFirst().reversed().reduce(expandedValue) { inner, part in
                .object([String(part): inner])
            }
            dotted = merge(dotted, [String(parts[0]): nested])
        }
        return merge(plain, dotted)
    }

    private static func merge(_ base: [String: JSONValue], _ top: [String: JSONValue]) -> [String: JSONValue] {
        base.merging(top) { old, new in
            if case .object(let oldMembers) = old, case .object(let newMembers) = new {
                return .object(merge(oldMembers, newMembers))
            }
            return new
        }
    }

    private static func leaves(of value: JSONValue, prefix: String?) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = value, !members.isEmpty || prefix == nil else {
            return prefix.map { [($0, value)] } ?? []
        }
        return members.keys.sorted().flatMap { name -> [(key: String, value: JSONValue)] in
            guard let member = members[name] else { return [] }
            return leaves(of: member, prefix: prefix.map { "\($0).\(name)" } ?? name)
        }
    }
}
