import Foundation

/// An iCalendar object (RFC 5545) read into components and properties that remember the exact
/// text they were read from. Writing it back gives every untouched property and component byte
/// for byte as it came (its folding, its case, its parameters' order), so a chore edited here
/// keeps what other clients wrote: alarms, categories, priorities, `X-` properties, time zones.
/// Only a property that was set or added is written anew, escaped and folded at 75 octets.
///
/// Reading is liberal where real clients are (bare LF line ends, a missing final line end,
/// lower-case names) and strict where a mistake would lose data: a component that never ends,
/// an END that does not match, a line that is not `name[;params]:value`, and objects past the
/// size limits are refused with the line they were found on.
package struct ICalendar: Sendable, Equatable {
    /// The outermost component (`VCALENDAR`).
    package var root: Component

    /// The most a calendar object may hold: bigger ones are refused, not read.
    package static let maximumBytes = 1 << 20
    /// How deep components may nest (`VCALENDAR` › `VTODO` › `VALARM` is 3).
    package static let maximumDepth = 8

    /// Reads `text`.
    ///
    /// - Throws: `ICalendarError` naming the line and what is wrong with it.
    package init(parsing text: String) throws(ICalendarError) {
        guard text.utf8.count <= Self.maximumBytes else { throw .tooLarge(bytes: text.utf8.count) }
        var reader = ICalendarLineReader(text)
        guard let first = try reader.next() else { throw .empty }
        guard first.line.isBegin, let name = first.line.componentName, name == "VCALENDAR" else {
            throw .malformed(line: first.number, reason: "an iCalendar object starts with BEGIN:VCALENDAR")
        }
        root = try Self.component(named: name, begin: first, reader: &reader, depth: 1)
        if let extra = try reader.next() {
            throw .malformed(line: extra.number, reason: "text after END:\(name)")
        }
        trailing = reader.tail
    }

    /// Blank lines after the end, as read.
    private var trailing = ""

    /// The text: untouched lines as they were read (blank ones included), changed ones written
    /// anew.
    package var text: String {
        var output = ""
        root.write(to: &output)
        return output + trailing
    }

    private static func component(
        named name: String, begin: ICalendarLineReader.Numbered, reader: inout ICalendarLineReader, depth: Int
    ) throws(ICalendarError) -> Component {
        guard depth <= maximumDepth else { throw .malformed(line: begin.number, reason: "components nest too deep") }
        var component = Component(name: name, beginText: begin.text)
        while let next = try reader.next() {
            if next.line.isBegin, let child = next.line.componentName {
                component.items.append(
                    .component(try Self.component(named: child, begin: next, reader: &reader, depth: depth + 1)))
            } else if next.line.isEnd {
                guard next.line.componentName == name else {
                    throw .malformed(
                        line: next.number, reason: "END:\(next.line.value) closes BEGIN:\(name)")
                }
                component.endText = next.text
                return component
            } else {
                component.items.append(.property(Property(line: next.line, text: next.text)))
            }
        }
        throw .malformed(line: begin.number, reason: "BEGIN:\(name) never ends")
    }
}

/// Why a calendar object could not be read.
package enum ICalendarError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooLarge(bytes: Int)
    case malformed(line: Int, reason: String)

    package var description: String {
        switch self {
        case .empty: "the calendar object is empty"
        case .tooLarge(let bytes): "the calendar object is \(bytes) bytes, more than \(ICalendar.maximumBytes)"
        case .malformed(let line, let reason): "line \(line): \(reason)"
        }
    }
}

extension ICalendar {
    /// A component: its properties and sub-components in order.
    package struct Component: Sendable, Equatable {
        /// The name in upper case (`VTODO`).
        package var name: String
        /// What it holds, in order.
        package var items: [Item] = []
        /// The BEGIN line as read (with its line end), or `nil` for a new component.
        var beginText: String?
        /// The END line as read, or `nil` for a new component.
        var endText: String?

        /// A property or a nested component.
        package enum Item: Sendable, Equatable {
            case property(Property)
            case component(Component)
        }

        /// A new, empty component.
        package init(name: String) {
            self.name = name.uppercased()
        }

        init(name: String, beginText: String) {
            self.name = name
            self.beginText = beginText
        }

        /// The nested components named `name` (upper case), in order.
        package func components(named name: String) -> [Component] {
            items.compactMap { item in
                if case .component(let component) = item, component.name == name { component } else { nil }
            }
        }

        /// The first property named `name` (upper case).
        package func property(_ name: String) -> Property? {
            for case .property(let property) in items where property.name == name { return property }
            return nil
        }

        /// Every property named `name` (upper case), in order.
        package func properties(_ name: String) -> [Property] {
            items.compactMap { item in
                if case .property(let property) = item, property.name == name { property } else { nil }
            }
        }

        /// Replaces the first property named `property.name` (dropping any later ones of that
        /// name), or adds it after the last property when there is none. Everything else stays
        /// as it was, byte for byte.
        package mutating func set(_ property: Property) {
            var replaced = false
            items = items.compactMap { item in
                guard case .property(let existing) = item, existing.name == property.name else { return item }
                if replaced { return nil }
                replaced = true
                return existing == property ? item : .property(property)
            }
            if !replaced {
                let index = items.lastIndex { if case .property = $0 { true } else { false } }.map { $0 + 1 } ?? 0
                items.insert(.property(property), at: index)
            }
        }

        /// Removes every property named `name` (upper case).
        package mutating func remove(_ name: String) {
            items.removeAll { if case .property(let property) = $0 { property.name == name } else { false } }
        }

        /// Replaces the components matching `predicate` through `change`.
        package mutating func updateComponents(
            where predicate: (Component) -> Bool, _ change: (inout Component) -> Void
        ) {
            for index in items.indices {
                guard case .component(var component) = items[index], predicate(component) else { continue }
                change(&component)
                items[index] = .component(component)
            }
        }

        /// Replaces the components named `name` (upper case) through `change`.
        package mutating func updateComponents(named name: String, _ change: (inout Component) -> Void) {
            updateComponents(where: { $0.name == name }, change)
        }

        /// Adds a nested component after everything else.
        package mutating func append(_ component: Component) {
            items.append(.component(component))
        }

        func write(to output: inout String) {
            output += beginText ?? "BEGIN:\(name)\r\n"
            for item in items {
                switch item {
                case .property(let property): output += property.text
                case .component(let component): component.write(to: &output)
                }
            }
            output += endText ?? "END:\(name)\r\n"
        }
    }

    /// A property: name, parameters and value, with the text it was read from.
    package struct Property: Sendable, Equatable {
        /// The name in upper case (`DUE`, `X-APPLE-SORT-ORDER`).
        package let name: String
        /// The parameters in order, names in upper case, values unquoted and caret-decoded.
        package let parameters: [Parameter]
        /// The value as written (still escaped for TEXT values: see `textValue`).
        package let value: String
        /// The folded text with its line end as read; `nil` for a property made here.
        private let readText: String?

        /// A new property; written escaped, folded at 75 octets, with CRLF line ends.
        package init(name: String, parameters: [Parameter] = [], value: String) {
            self.name = name.uppercased()
            self.parameters = parameters
            self.value = value
            readText = nil
        }

        /// A new TEXT property (`SUMMARY`, `DESCRIPTION`): `text` escaped as RFC 5545 asks.
        package init(name: String, parameters: [Parameter] = [], text: String) {
            self.init(name: name, parameters: parameters, value: ICalendarText.escaped(text))
        }

        init(line: ICalendarContentLine, text: String) {
            name = line.name
            parameters = line.parameters
            value = line.value
            readText = text
        }

        /// The value of a TEXT property, unescaped.
        package var textValue: String { ICalendarText.unescaped(value) }

        /// The first value of parameter `name` (upper case).
        package func parameter(_ name: String) -> String? {
            parameters.first { $0.name == name }?.values.first
        }

        /// The property as it is written: as read, or folded anew.
        package var text: String { readText ?? ICalendarText.folded(contentLine) }

        /// The unfolded line `name;params:value`.
        var contentLine: String {
            var line = name
            for parameter in parameters {
                line += ";" + parameter.name + "="
                line += parameter.values.map(ICalendarText.parameterValue).joined(separator: ",")
            }
            return line + ":" + value
        }

        package static func == (lhs: Property, rhs: Property) -> Bool {
            lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.value == rhs.value
        }
    }

    /// A property parameter (`TZID=Europe/Berlin`, `VALUE=DATE`).
    package struct Parameter: Sendable, Equatable {
        package var name: String
        package var values: [String]

        package init(name: String, values: [String]) {
            self.name = name.uppercased()
            self.values = values
        }

        package init(_ name: String, _ value: String) {
            self.init(name: name, values: [value])
        }
    }
}

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
