import CLibXML2
import Foundation
import Testing

@testable import Markup

/// The one libxml2 push-parser set-up every reader uses: its modes and its limits, seen through
/// a reader that only counts elements.
@Suite("XMLPushParser")
struct XMLPushParserTests {
    /// Elements seen, by a reader whose `startElementNs` admits each through the parser.
    private static func count(
        _ document: String, mode: XMLPushParser.Mode = .recovering, limits: XMLLimits = generous,
        chunk: Int = .max
    ) throws -> (elements: Int, parser: XMLPushParser) {
        var handler = xmlSAXHandler()
        handler.startElementNs = { pointer, _, _, _, _, _, _, _, _ in
            guard let counter = XMLPushSession.admit(pointer) else { return }
            counter.assumingMemoryBound(to: Int.self).pointee += 1
        }
        let parser = try #require(XMLPushParser(handler: handler, mode: mode, limits: limits))
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.initialize(to: 0)
        defer { counter.deallocate() }
        parser.owner = UnsafeMutableRawPointer(counter)
        let bytes = Array(document.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + min(chunk, bytes.count - start))
            bytes[start..<end].withUnsafeBytes { parser.push($0) }
            start = end
        }
        parser.finish()
        return (counter.pointee, parser)
    }

    private static let generous = XMLLimits(
        maximumBytes: 1 << 20, maximumDepth: 16, maximumElements: 1000, entityBudget: 1000)

    @Test("strict reading ends at the first error; recovering reads on")
    func modes() throws {
        let document = "<a><b></c><d/><e/></a>"
        let strict = try Self.count(document, mode: .strict)
        let recovering = try Self.count(document, mode: .recovering)
        #expect(strict.parser.firstError?.line == 1)
        #expect(recovering.parser.firstError?.line == 1)
        #expect(strict.elements == 2)
        #expect(recovering.elements == 4)
        #expect(strict.parser.exceeded == nil)
    }

    @Test("depth, element count and size stop the parser at their limits")
    func limits() throws {
        let deep = try Self.count(String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100))
        #expect(deep.parser.exceeded == .tooDeep(limit: 16))
        #expect(deep.elements == 16)
        let wide = try Self.count("<r>" + String(repeating: "<a/>", count: 2000) + "</r>", chunk: 64)
        #expect(wide.parser.exceeded == .tooManyElements(limit: 1000))
        #expect(wide.elements == 1000)
        // Refused at the chunk that goes past the limit: here the last, 7 bytes past it.
        let large = try Self.count("<r>" + String(repeating: " ", count: 1 << 20) + "</r>", chunk: 4096)
        #expect(large.parser.exceeded == .tooLarge(bytes: (1 << 20) + 7, limit: 1 << 20))
    }

    @Test("internal entities expand within the budget; none are read without one; external ones never")
    func entities() throws {
        var declarations = "<!ENTITY lol0 \"lol\">"
        for level in 1...6 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let laughs = "<!DOCTYPE r [\(declarations)]><r>&lol6;</r>"
        let budgeted = try Self.count(laughs)
        #expect(budgeted.parser.exceeded == .entityBudget(limit: 1000))
        var none = Self.generous
        none.entityBudget = 0
        let unbudgeted = try Self.count(laughs, limits: none)
        #expect(unbudgeted.parser.exceeded == nil)
        #expect(unbudgeted.parser.entityBytes == 0)
        #expect(unbudgeted.parser.firstError != nil)
        let small = try Self.count("<!DOCTYPE r [<!ENTITY co \"Co\">]><r>&co;&co;</r>")
        #expect(small.parser.exceeded == nil)
        #expect(small.parser.entityBytes >= 4)
        let external = try Self.count("<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>")
        #expect(external.parser.entityBytes == 0)
    }
}
