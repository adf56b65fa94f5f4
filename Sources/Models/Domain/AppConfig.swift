public import Foundation

/// The remote configuration document: known keys with typed access, every other key kept.
///
/// The whole JSON object is stored as it came, so keys this version does not know survive a
/// decode–encode round trip and stay readable by path.
public struct AppConfig: Sendable, Hashable, Codable {
    /// Every key of the document.
    public var values: [String: JSONValue]

    /// Creates a configuration from its top-level members.
    public init(values: [String: JSONValue]) { self.values = values }

    /// Decodes any JSON object.
    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    /// Encodes the object with every key it holds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    /// The value at a dotted path (`minVersion`, `features.fullTextSearch`).
    public subscript(path: String) -> JSONValue? { JSONValue.object(values)[path: path] }

    /// The lowest app version allowed to run; `nil` when the document sets none.
    ///
    /// - Throws: `ModelError.invalidVersion` when `minVersion` is present but malformed, so
    ///   the caller can report it rather than lock users out.
    public func minimumVersion() throws(ModelError) -> SemanticVersion? {
        guard let raw = values["minVersion"], raw != .null else { return nil }
        guard let text = raw.stringValue else { throw .invalidVersion(raw.description) }
        return try SemanticVersion(text)
    }

    /// Whether `appVersion` is below the minimum version. A malformed minimum is no requirement.
    public func isUpdateRequired(appVersion: SemanticVersion) -> Bool {
        guard let minimum = try? minimumVersion() else { return false }
        return appVersion < minimum
    }

    /// Where the remote document is fetched from.
    public var configURL: URL? { self["configURL"]?.stringValue.flatMap(URL.init(string:)) }
    /// Minutes between automatic refreshes.
    public var refreshIntervalMinutes: Int? { self["refreshIntervalMinutes"]?.intValue }
    /// How many feeds refresh at once.
    public var maxConcurrentRefreshes: Int? { self["maxConcurrentRefreshes"]?.intValue }
    /// How many connections the network transport opens to one host at most.
    public var maxConnectionsPerHost: Int? { self["maxConnectionsPerHost"]?.intValue }
    /// The longest a server's `Retry-After` may defer a feed, in minutes.
    public var maxRetryAfterMinutes: Int? { self["maxRetryAfterMinutes"]?.intValue }
    /// Feature switches by name.
    public var features: [String: Bool] {
        self["features"]?.objectValue?.compactMapValues(\.boolValue) ?? [:]
    }
    /// Percentage rollouts (0–100) by feature name.
    public var rollouts: [String: Int] {
        self["rollouts"]?.objectValue?.compactMapValues(\.intValue) ?? [:]
    }

    /// The top-level keys whose values differ between two documents, sorted.
    public func changedKeys(comparedTo other: AppConfig) -> [String] {
        Set(values.keys).union(other.values.keys).filter { values[$0] != other.values[$0] }.sorted()
    }
}
