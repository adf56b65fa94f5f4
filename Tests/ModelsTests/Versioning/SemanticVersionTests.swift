import Foundation
import Models
import Testing

@Suite("SemanticVersion")
struct SemanticVersionTests {
    @Test(
        "parses every accepted form",
        arguments: [
            ("1", "1.0.0"), ("1.2", "1.2.0"), ("1.2.3", "1.2.3"), ("1.2.3-beta.1", "1.2.3-beta.1"),
            ("v1.2", "1.2.0"), ("V2", "2.0.0"), (" 1.0.0 ", "1.0.0"), ("1.2.3+build.5", "1.2.3+build.5"),
            ("1.0.0-rc.1+exp.sha.5114f85", "1.0.0-rc.1+exp.sha.5114f85"),
        ])
    func parses(input: String, normalised: String) throws {
        #expect(try SemanticVersion(input).description == normalised)
    }

    @Test(
        "rejects malformed strings with an error that quotes the input",
        arguments: [
            "", "v", "1.", ".1", "1..2", "1.2.3.4", "1.x", "-1.0", "1.0-", "1.0+", "1.0.0-beta..1", "one", "1.0 beta",
        ])
    func rejects(input: String) {
        #expect(throws: ModelError.invalidVersion(input)) { try SemanticVersion(input) }
        let message = ModelError.invalidVersion(input).errorDescription ?? ""
        #expect(message.contains("\"\(input)\""))
    }

    @Test("missing components count as zero")
    func missingComponentsAreZero() throws {
        #expect(try SemanticVersion("1.0") == SemanticVersion("1.0.0"))
        #expect(try SemanticVersion("2") == SemanticVersion("2.0.0"))
        #expect(try Set([SemanticVersion("1.0"), SemanticVersion("1.0.0")]).count == 1)
    }

    @Test("components compare numerically, not as text")
    func numericComparison() throws {
        #expect(try SemanticVersion("1.10.0") > SemanticVersion("1.9.0"))
        #expect(try SemanticVersion("1.2.10") > SemanticVersion("1.2.9"))
        #expect(try SemanticVersion("10.0") > SemanticVersion("9.99.99"))
    }

    @Test("follows SemVer 2.0.0 precedence, pre-releases first")
    func semverPrecedence() throws {
        let ordered = try [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
            "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0",
        ].map(SemanticVersion.init)
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(lower < higher, "\(lower) should sort before \(higher)")
            #expect(!(higher < lower))
        }
        #expect(ordered.shuffled().sorted() == ordered)
    }

    @Test("numeric identifiers of any length are numbers: compared digit by digit, never refused")
    func unboundedNumbers() throws {
        let huge = try SemanticVersion("99999999999999999999.0.0")
        #expect(huge.description == "99999999999999999999.0.0")
        #expect(try SemanticVersion("1.0.0") < huge)
        #expect(try SemanticVersion("9223372036854775807.0.0") < huge)
        #expect(try huge < SemanticVersion("100000000000000000000.0.0"))
        #expect(huge.major == Int.max)
        let minor = try SemanticVersion("1.99999999999999999999.0")
        #expect(try SemanticVersion("1.2.0") < minor)
        #expect(try minor < SemanticVersion("2.0.0"))
        #expect(try SemanticVersion("1.0.0-99999999999999999999") > SemanticVersion("1.0.0-9"))
        #expect(try SemanticVersion("1.0.0-99999999999999999999") < SemanticVersion("1.0.0-alpha"))
        #expect(try SemanticVersion("01.002.0") == SemanticVersion("1.2.0"))
    }

    @Test("build metadata does not affect precedence or equality")
    func buildMetadataIgnored() throws {
        #expect(try SemanticVersion("1.0.0+a") == SemanticVersion("1.0.0+b"))
        #expect(try !(SemanticVersion("1.0.0+a") < SemanticVersion("1.0.0+b")))
    }

    @Test("round-trips through JSON as a string and reports bad strings with their path")
    func codable() throws {
        let version = try SemanticVersion("v1.2")
        let data = try JSONCoding.encoder().encode([version])
        #expect(String(decoding: data, as: UTF8.self) == #"["1.2.0"]"#)
        #expect(try JSONCoding.decoder().decode([SemanticVersion].self, from: data) == [version])

        do {
            _ = try JSONCoding.decoder().decode([SemanticVersion].self, from: Data(#"["1.0","nope"]"#.utf8))
            Issue.record("decoding an invalid version should fail")
        } catch let error as DecodingError {
            #expect(error.readableDescription.hasPrefix("[1]: "))
            #expect(error.readableDescription.contains("\"nope\""))
        }
    }
}
