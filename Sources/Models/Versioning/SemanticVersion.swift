import Foundation

/// A version number compared by SemVer 2.0.0 precedence.
///
/// Missing components count as zero, so `1.0` equals `1.0.0`; a leading `v` is accepted;
/// a pre-release sorts before its release; build metadata is kept but never compared.
/// Numeric identifiers have no bound (as SemVer says): `99999999999999999999.0.0` is a version,
/// compared digit by digit; `major`, `minor` and `patch` saturate at `Int.max` for such a one.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major component (`Int.max` when it is larger).
    public var major: Int { Self.saturated(digits[0]) }
    /// The minor component (0 when the string omitted it; `Int.max` when it is larger).
    public var minor: Int { Self.saturated(digits[1]) }
    /// The patch component (0 when the string omitted it; `Int.max` when it is larger).
    public var patch: Int { Self.saturated(digits[2]) }
    /// Major, minor and patch as decimal digits without leading zeros ("0" for zero).
    private let digits: [String]
    /// The dot-separated pre-release identifiers (`["beta", "1"]` for `-beta.1`).
    public let prerelease: [String]
    /// The dot-separated build metadata identifiers; ignored for precedence.
    public let build: [String]

    /// Creates a version from its components.
    public init(major: Int, minor: Int = 0, patch: Int = 0, prerelease: [String] = [], build: [String] = []) {
        self.init(digits: [major, minor, patch].map { String(max(0, $0)) }, prerelease: prerelease, build: build)
    }

    private init(digits: [String], prerelease: [String], build: [String]) {
        self.digits = digits
        self.prerelease = prerelease
        self.build = build
    }

    /// Parses `1`, `1.2`, `1.2.3`, `1.2.3-beta.1`, `v1.2` or `1.2.3+build.5`.
    ///
    /// - Throws: `ModelError.invalidVersion` quoting the input.
    public init(_ string: String) throws(ModelError) {
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        var rest = Substring(trimmed)
        if rest.first == "v" || rest.first == "V" { rest = rest.dropFirst() }

        var build: [String] = []
        if let plus = rest.firstIndex(of: "+") {
            build = rest[rest.index(after: plus)...].split(separator: ".", omittingEmptySubsequences: false).map(
                String.init)
            rest = rest[..<plus]
            guard build.allSatisfy(Self.isValidIdentifier) else { throw .invalidVersion(string) }
        }
        var prerelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            prerelease = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false).map(
                String.init)
            rest = rest[..<dash]
            guard prerelease.allSatisfy(Self.isValidIdentifier) else { throw .invalidVersion(string) }
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { throw .invalidVersion(string) }
        var numbers: [String] = []
        for part in parts {
            guard Self.isNumeric(part) else { throw .invalidVersion(string) }
            numbers.append(Self.withoutLeadingZeros(part))
        }
        while numbers.count < 3 { numbers.append("0") }
        self.init(digits: numbers, prerelease: prerelease, build: build)
    }

    /// The normalised form, `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`.
    public var description: String {
        var text = digits.joined(separator: ".")
        if !prerelease.isEmpty { text += "-" + prerelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    /// Whether this is a pre-release (`1.0.0-rc.1`).
    public var isPrerelease: Bool { !prerelease.isEmpty }

    /// Equal when the numbers and pre-release identifiers match; build metadata is ignored.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.digits == rhs.digits && lhs.prerelease == rhs.prerelease
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(digits)
        hasher.combine(prerelease)
    }

    /// SemVer 2.0.0 precedence.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        for (left, right) in zip(lhs.digits, rhs.digits) where left != right {
            return Self.number(left, isBelow: right)
        }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true), (true, false): return false
        case (false, true): return true
        case (false, false): break
        }
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
            return Self.identifier(left, precedes: right)
        }
        return lhs.prerelease.count < rhs.prerelease.count
    }

    /// SemVer rule 11: numeric identifiers compare numerically and sort before alphanumeric ones.
    private static func identifier(_ left: String, precedes right: String) -> Bool {
        switch (isNumeric(Substring(left)), isNumeric(Substring(right))) {
        case (true, true): number(withoutLeadingZeros(Substring(left)), isBelow: withoutLeadingZeros(Substring(right)))
        case (true, false): true
        case (false, true): false
        case (false, false): left < right
        }
    }

    /// Whether `text` is a numeric identifier: ASCII digits only, of any length.
    private static func isNumeric(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `text`'s digits without leading zeros ("0" for zero).
    private static func withoutLeadingZeros(_ text: Substring) -> String {
        let trimmed = text.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// Numeric order of two numbers written without leading zeros: the longer is the larger.
    private static func number(_ left: String, isBelow right: String) -> Bool {
        left.utf8.count != right.utf8.count ? left.utf8.count < right.utf8.count : left < right
    }

    /// The number as an `Int`, or `Int.max` when it is larger.
    private static func saturated(_ digits: String) -> Int { Int(digits) ?? Int.max }

    private static func isValidIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty
            && identifier.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-")
            }
    }
}

extension SemanticVersion: Codable {
    /// Decodes a version from its string form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            try self.init(string)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: error.errorDescription ?? "invalid version")
        }
    }

    /// Encodes the normalised string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
