import Foundation
import Markup

/// One unfolded content line, split into its parts.
struct ICalendarContentLine: Sendable, Equatable {
    var name: String
    var parameters: [ICalendar.Parameter]
    var value: String

    var isBegin: Bool { name == "BEGIN" }
    var isEnd: Bool { name == "END" }
    /// The component a BEGIN or END line names, upper case; `nil` when it names none.
    var componentName: String? {
        let trimmed = value.trimmedWhitespace.uppercased()
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy(ICalendarContentLine.isNameByte) else { return nil }
        return trimmed
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D
    }

    /// Splits `line` (already unfolded) into name, parameters and value; `nil` when it is not
    /// `name[;param=value[,value]...]:value`.
    init?(_ line: Substring) {
        let bytes = Array(line.utf8)
        var index = 0
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > 0, index < bytes.count else { return nil }
        name = String(decoding: bytes[0..<index], as: UTF8.self).uppercased()
        parameters = []
        while index < bytes.count, bytes[index] == UInt8(ascii: ";") {
            index += 1
            let nameStart = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            let parameterName = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            index += 1
            var values: [String] = []
            while true {
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    let start = index + 1
                    guard let close = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                    values.append(ICalendarText.caretDecoded(String(decoding: bytes[start..<close], as: UTF8.self)))
                    index = close + 1
                } else {
                    let start = index
                    while index < bytes.count,
                        ![UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(bytes[index]),
                        bytes[index] != UInt8(ascii: "\"")
                    {
                        index += 1
                    }
                    values.append(ICalendarText.caretDecoded(String(decoding: bytes[start..<index], as: UTF8.self)))
                }
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                break
            }
            parameters.append(ICalendar.Parameter(name: parameterName, values: values))
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
    }
}

/// Unfolds an iCalendar text into content lines, each with the exact text it came from.
struct ICalendarLineReader {
    struct Numbered {
        var line: ICalendarContentLine
        /// The folded text with its line ends, as it was in the object.
        var text: String
        /// The (1-based) physical line it starts on.
        var number: Int
    }

    private let text: String
    private var position: String.Index
    private var lineNumber = 0

    init(_ text: String) {
        self.text = text
        position = text.startIndex
    }

    /// The blank lines read after the last content line (kept so that the object is written
    /// back as it came).
    private(set) var tail = ""

    /// The next content line, with the blank lines before it in its text; `nil` at the end.
    mutating func next() throws(ICalendarError) -> Numbered? {
        let start = position
        while position < text.endIndex {
            let startLine = lineNumber + 1
            var logical = Substring()
            var first = true
            // A physical line, then every line that starts with a space or a tab.
            repeat {
                let (content, end) = physicalLine(from: position)
                lineNumber += 1
                logical += first ? content : content.dropFirst()
                first = false
                position = end
            } while position < text.endIndex && (text[position] == " " || text[position] == "\t")
            if logical.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            guard let line = ICalendarContentLine(logical) else {
                throw .malformed(line: startLine, reason: "not a content line (name:value): \(Self.excerpt(logical))")
            }
            return Numbered(line: line, text: String(text[start..<position]), number: startLine)
        }
        tail = String(text[start..<position])
        return nil
    }

    /// The physical line at `start` without its line end, and where the next one starts (after
    /// CRLF, LF or a lone CR).
    private func physicalLine(from start: String.Index) -> (Substring, String.Index) {
        let utf8 = text.utf8
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x0A { return (text[start..<index], utf8.index(after: index)) }
            if byte == 0x0D {
                let next = utf8.index(after: index)
                if next < utf8.endIndex, utf8[next] == 0x0A { return (text[start..<index], utf8.index(after: next)) }
                return (text[start..<index], next)
            }
            index = utf8.index(after: index)
        }
        return (text[start..<index], index)
    }

    private static func excerpt(_ line: Substring) -> String {
        let cut = line.prefix(40)
        return String(cut) + (cut.count < line.count ? "…" : "")
    }
}

/// The text rules of RFC 5545: TEXT escaping, line folding, parameter quoting (RFC 6868 carets).
enum ICalendarText {
    /// TEXT escaped: `\` `;` `,` and line breaks.
    static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": output += "\\\\"
            case ";": output += "\\;"
            case ",": output += "\\,"
            case "\n": if !previousWasCR { output += "\\n" }
            case "\r": output += "\\n"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// A TEXT value unescaped (`\n` and `\N` are line breaks; an unknown escape keeps its
    /// character, as clients in the wild write `\:`).
    static func unescaped(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var output = ""
        var escaping = false
        for character in value {
            if escaping {
                output.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                output.append(character)
            }
        }
        if escaping { output.append("\\") }
        return output
    }

    /// `line` folded at 75 octets (never inside a UTF-8 character), with CRLF line ends.
    static func folded(_ line: String) -> String {
        var output = ""
        var count = 0
        for character in line {
            let size = character.utf8.count
            if count + size > 75 {
                output += "\r\n "
                count = 1
            }
            output.append(character)
            count += size
        }
        return output + "\r\n"
    }

    /// A parameter value as written: caret-encoded (RFC 6868), quoted when it holds `;`, `:`
    /// or `,`.
    static func parameterValue(_ value: String) -> String {
        var encoded = ""
        for character in value {
            switch character {
            case "^": encoded += "^^"
            case "\n", "\r\n": encoded += "^n"
            case "\"": encoded += "^'"
            default: encoded.append(character)
            }
        }
        return encoded.contains(where: { $0 == ";" || $0 == ":" || $0 == "," }) ? "\"\(encoded)\"" : encoded
    }

    /// RFC 6868: `^n` a line break, `^^` a caret, `^'` a double quote.
    static func caretDecoded(_ value: String) -> String {
        guard value.contains("^") else { return value }
        var output = ""
        var iterator = value.makeIterator()
        while let character = iterator.next() {
            guard character == "^" else {
                output.append(character)
                continue
            }
            switch iterator.next() {
            case "n"?: output.append("\n")
            case "^"?: output.append("^")
            case "'"?: output.append("\"")
            case let other?: output += "^" + String(other)
            case nil: output.append("^")
            }
        }
        return output
    }
}
