import Foundation

@testable import FeedParser

/// libFuzzer entry point for the JSON Feed reader: `JSONFeedParser` on any bytes, and its JSON
/// reader, `JSONScanner`, on its own.
///
/// Invariants: nothing crashes; every item has a non-empty unique id; a document the scanner
/// reads, written out again (`JSONText`), reads back to the same value; and the scanner agrees
/// with `JSONSerialization` on what is JSON, but where it is documented to differ (a lone
/// surrogate escape reads as U+FFFD, bytes that are not UTF-8 are replaced, nesting stops at
/// `JSONScanner.maximumDepth`, and UTF-16 and UTF-32, which `JSONSerialization` detects by the
/// zero bytes at the start, are not read) or where `JSONSerialization` is the one that strays
/// from RFC 8259: it accepts a trailing comma (`[1,]`, `{"a":1,}`) and refuses a number beyond
/// a `Double` (`1e400`).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: start, count: count)
    if let feed = try? JSONFeedParser.parse(data, url: URL(string: "https://example.com/feed.json")),
        let item = feed.items.first(where: { $0.uniqueID.isEmpty })
    {
        fatalError("an item without a unique id: \(item)")
    }
    let scanned = Result { () throws(JSONScanner.Failure) in try JSONScanner.parse(data) }
    if case .success(let node) = scanned {
        let text = JSONText.write(node)
        guard let again = try? JSONScanner.parse(Data(text.utf8)) else { fatalError("\(text) does not read back") }
        let textAgain = JSONText.write(again)
        guard textAgain == text else { fatalError("\(text) reads back as \(textAgain)") }
    }
    checkAgreement(data, scanned)
    return 0
}

/// Traps when `JSONSerialization` and the scanner disagree on whether `data` is JSON, outside
/// the differences the scanner documents.
private func checkAgreement(_ data: Data, _ scanned: Result<JSONNode, JSONScanner.Failure>) {
    guard !data.prefix(4).contains(0), let text = String(validating: data, as: UTF8.self) else { return }
    let foundation = Result { try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) }
    switch (scanned, foundation) {
    case (.success(let node), .failure(let error)):
        guard !text.lowercased().contains("\\ud"), !node.hasNumberBeyondDouble else { return }
        fatalError("the scanner reads what JSONSerialization refuses (\(error))")
    case (.failure(let failure), .success):
        guard !failure.message.contains("nests deeper") else { return }
        let before = data.prefix(failure.offset).last { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        let at = data.dropFirst(failure.offset).first
        if before == UInt8(ascii: ","), at == UInt8(ascii: "]") || at == UInt8(ascii: "}") { return }
        fatalError("JSONSerialization reads what the scanner refuses (\(failure.message) at \(failure.offset))")
    default:
        return
    }
}

extension JSONNode {
    /// Whether a number anywhere in the value is too large for a `Double`.
    var hasNumberBeyondDouble: Bool {
        switch self {
        case .object(let members): members.contains { $0.value.hasNumberBeyondDouble }
        case .array(let elements): elements.contains { $0.hasNumberBeyondDouble }
        case .number(let text): !(Double(text)?.isFinite ?? false)
        default: false
        }
    }
}

/// Writes a `JSONNode` as JSON text: members in order, numbers as read, strings with only the
/// escapes JSON requires.
enum JSONText {
    static func write(_ node: JSONNode) -> String {
        var output = ""
        write(node, into: &output)
        return output
    }

    private static func write(_ node: JSONNode, into output: inout String) {
        switch node {
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                write(string: member.key, into: &output)
                output += ":"
                write(member.value, into: &output)
            }
            output += "}"
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, into: &output)
            }
            output += "]"
        case .string(let text): write(string: text, into: &output)
        case .number(let text): output += text
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        }
    }

    private static func write(string: String, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
