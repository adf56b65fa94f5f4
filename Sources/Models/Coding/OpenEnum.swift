import Foundation

/// A string enum that keeps values it does not know instead of failing to decode.
///
/// Servers add enum values long before every client knows them; a strict `Codable` enum turns
/// one new value into a failed request. Conforming types list their `knownCases` and add a
/// `case other(String)`; decoding maps an unknown string to `.other` and encoding writes it
/// back unchanged, so a round trip loses nothing.
public protocol OpenEnum: RawRepresentable, Codable, Hashable, Sendable where RawValue == String {
    /// Every case except `.other`.
    static var knownCases: [Self] { get }
    /// Wraps a value this version does not know.
    static func other(_ rawValue: String) -> Self
}

extension OpenEnum {
    /// Maps a known raw value to its case and anything else to `.other(rawValue)`; never fails.
    public init(rawValue: String) {
        self = Self.resolving(rawValue)
    }

    /// The known case whose raw value is `rawValue`, else `.other(rawValue)`.
    public static func resolving(_ rawValue: String) -> Self {
        knownCases.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    /// Whether this value is one of `knownCases`.
    public var isKnown: Bool { Self.knownCases.contains(self) }

    /// Decodes any string.
    public init(from decoder: any Decoder) throws {
        self = Self.resolving(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw string, unknown values included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
