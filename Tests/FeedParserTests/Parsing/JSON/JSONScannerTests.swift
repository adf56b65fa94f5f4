import Foundation
import Testing

@testable import FeedParser

@Suite("JSON scanner")
struct JSONScannerTests {
    func parse(_ text: String) throws -> JSONNode { try JSONScanner.parse(Data(text.utf8)) }

    func failure(_ text: String) -> JSONScanner.Failure? {
        do {
            _ = try JSONScanner.parse(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("objects, arrays, strings, numbers, literals; a repeated key's last value wins")
    func values() throws {
        let node = try parse(
            #" {"a": [1, -2.5e3, true, false, null, {}, []], "b": "x", "b": "y", "c": {"d": "e"}} "#)
        guard case .array(let list)? = node["a"] else {
            Issue.record("a is not an array")
            return
        }
        #expect(list.count == 7)
        if case .number(let text) = list[1] { #expect(text == "-2.5e3") } else { Issue.record("not a number") }
        if case .bool(let value) = list[2] { #expect(value) } else { Issue.record("not a bool") }
        #expect(node["b"]?.string == "y")
        #expect(node["c"]?["d"]?.string == "e")
        #expect(node["missing"] == nil)
    }

    @Test("escapes, \\u escapes with surrogate pairs, lone surrogates as U+FFFD, long plain runs")
    func strings() throws {
        let long = String(repeating: "abcdefgh", count: 40)
        let node = try parse(
            #"{"e": "q\" b\\ s\/ \b\f\n\r\t", "u": "caf\u00e9 \ud83d\ude00 \ud83d x \ude00", "l": "\#(long)", "m": "é✓"}"#
        )
        #expect(node["e"]?.string == "q\" b\\ s/ \u{08}\u{0C}\n\r\t")
        #expect(node["u"]?.string == "café 😀 \u{FFFD} x \u{FFFD}")
        #expect(node["l"]?.string == long)
        #expect(node["m"]?.string == "é✓")
    }

    @Test("a UTF-8 byte-order mark before the document is accepted")
    func byteOrderMark() throws {
        let node = try JSONScanner.parse(Data([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8)))
        #expect(node.isObject)
    }

    @Test(
        "invalid JSON fails with the reason and the byte offset",
        arguments: [
            (#"{"a": 1,}"#, "quoted name"), ("[1, 2", "ends inside an array"), (#"{"a" 1}"#, "expected \":\""),
            ("[01]", "cannot start with 0"), ("[1.]", "digits after"), ("\"a\u{01}b\"", "control character"),
            (#""abc"#, "ends inside a string"), (#"["\x"]"#, "is not an escape"), (#"["\u12"]"#, "four hexadecimal"),
            ("[tru]", "expected true"), ("{} {}", "after the JSON value"), ("", "ends where a value"),
        ])
    func invalid(text: String, reason: String) {
        let error = failure(text)
        #expect(error?.message.contains(reason) == true, "\(text): \(String(describing: error))")
    }

    @Test("nesting is bounded: ten thousand [ are an error, not a crash")
    func deepNesting() {
        let error = failure(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
        #expect(error?.message.contains("nests deeper than \(JSONScanner.maximumDepth)") == true)
        #expect((try? parse(String(repeating: "[", count: 200) + String(repeating: "]", count: 200))) != nil)
    }

    @Test("every JSON fixture reads the same as JSONSerialization reads it")
    func agreesWithJSONSerialization() throws {
        for name in [
            "realistic-microblog", "v1.0-author", "v1.0-basic", "v1.1-basic", "broken-items", "not-a-jsonfeed",
        ] {
            let data = try fixture("jsonfeed/\(name).json")
            let ours = try JSONScanner.parse(data)
            let theirs = try JSONSerialization.jsonObject(with: data)
            #expect(Self.same(ours, theirs), "\(name)")
        }
    }

    /// Whether a node and a Foundation JSON object hold the same values.
    static func same(_ node: JSONNode, _ object: Any) -> Bool {
        switch node {
        case .object(let members):
            guard let dictionary = object as? [String: Any] else { return false }
            var last: [String: JSONNode] = [:]
            for member in members { last[member.key] = member.value }
            return last.count == dictionary.count
                && last.allSatisfy { key, value in dictionary[key].map { same(value, $0) } ?? false }
        case .array(let elements):
            guard let array = object as? [Any], array.count == elements.count else { return false }
            return zip(elements, array).allSatisfy { same($0, $1) }
        case .string(let text): return (object as? String) == text
        case .number(let text):
            guard let number = object as? NSNumber, let value = Double(text) else { return false }
            return number.doubleValue == value
        case .bool(let value): return (object as? NSNumber)?.boolValue == value
        case .null: return object is NSNull
        }
    }
}
