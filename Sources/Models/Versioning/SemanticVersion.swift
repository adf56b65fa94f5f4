import Foundation

/// A version number compared by SemVer 2.0.0 precedence.
///
/// Missing components count as zero, so `1.0` equals `1.0.0`; a leading `v` is accepted;
/// a pre-release sorts before its release; build metadata is kept but never compared.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major component.
    public let major: Int
    /// The minor component (0 when the string omitted it).
    public let minor: Int
    /// The patch component (0 when the string omitted it).
    public let patch: Int
    /// The dot-separated pre-release identifiers (`["beta", "1"]` for `-beta.1`).
    public let prerelease: [String]
    /// The dot-separated build metadata identifiers; ignored for precedence.
    public let build: [String]

    /// Creates a version from its components.
    public init(major: Int, minor: Int = 0, patch: Int = 0, prerelease: [String] = [], build: [String] = []) {
        self.major = major
        self.minor = minor
        self.patch = patch
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
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(part) else {
                throw .invalidVersion(string)
            }
            numbers.append(value)
        }
        while numbers.count < 3 { numbers.append(0) }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2], prerelease: prerelease, build: build)
    }

    /// The normalised form, `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`.
    public var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty { text += "-" + prerelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    /// Whether this is a pre-release (`1.0.0-rc.1`).
    public var isPrerelease: Bool { !prerelease.isEmpty }

    /// Equal when the numbers and pre-release identifiers match; build metadata is ignored.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.major == rhs.major && lhs.minor == rhs.minor && lhs.patch == rhs.patch
            && lhs.prerelease == rhs.prerelease
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(prerelease)
    }

    /// SemVer 2.0.0 precedence.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch }
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
        switch (Int(left), Int(right)) {
        case let (l?, r?): l < r
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): left < right
        }
    }

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
