import Foundation
import Markup

/// The general entities a document's internal subset declares (`<!DOCTYPE rss [<!ENTITY co
/// "Example Co">]>`), each with the text a reference to it can be rewritten as.
///
/// libxml2 in recovery mode stops delivering entity references after the document's first
/// error, the document's own entities included; a damaged document is read again with its
/// references rewritten (`HTMLEntityPreprocessor`), and a reference to a declared entity is then
/// written as the entity's value. Only a value that needs no further expansion is written in:
/// plain text, character references, and the predefined and HTML entities (as character
/// references). A value holding markup, a reference to another declared entity or a parameter
/// entity is left to libxml2, as are external entities (never loaded). So nothing expands
/// recursively, and the total written is bounded by the caller's budget.
struct InternalEntities {
    /// Each declared name, with the text to write for a reference to it (`nil`: not written in).
    private var values: [String: String?] = [:]

    init() {}

    func declares(_ name: String) -> Bool { values[name] != nil }

    /// The text to write for a reference to `name`, when it can be written in.
    func replacement(for name: String) -> String? { values[name] ?? nil }

    /// The entities declared in `bytes` (the document's start, where its DOCTYPE is); the first
    /// declaration of a name wins, as in XML.
    init(declaredIn bytes: UnsafeBufferPointer<UInt8>) {
        let marker = Array("<!ENTITY".utf8)
        var index = 0
        while index + marker.count < bytes.count {
            guard bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) else {
                index += 1
                continue
            }
            index += marker.count
            skipSpaces(bytes, &index)
            // A parameter entity (`<!ENTITY % name …>`) is no general entity.
            guard index < bytes.count, bytes[index] != UInt8(ascii: "%") else { continue }
            let nameStart = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart else { continue }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
            skipSpaces(bytes, &index)
            guard index < bytes.count else { break }
            let quote = bytes[index]
            var value: String?
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                let valueStart = index + 1
                index = valueStart
                while index < bytes.count, bytes[index] != quote { index += 1 }
                guard index < bytes.count else { break }
                value = Self.writable(UnsafeBufferPointer(rebasing: bytes[valueStart..<index]))
            }
            // Else SYSTEM or PUBLIC: an external entity, declared but never written in.
            if values[name] == nil { values[name] = .some(value) }
        }
    }

    private func skipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09
                || bytes[index] == 0x0D
        {
            index += 1
        }
    }

    /// An entity value as text to write in place of a reference, or `nil` when it holds markup
    /// or a reference that would need expanding.
    private static func writable(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        var output = ""
        var index = 0
        while index < value.count {
            let byte = value[index]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "%") { return nil }
            guard byte == UInt8(ascii: "&") else {
                let start = index
                while index < value.count, value[index] != UInt8(ascii: "&"), value[index] != UInt8(ascii: "<"),
                    value[index] != UInt8(ascii: "%")
                {
                    index += 1
                }
                output += String(decoding: UnsafeBufferPointer(rebasing: value[start..<index]), as: UTF8.self)
                continue
            }
            guard let semicolon = value[index...].firstIndex(of: UInt8(ascii: ";")), semicolon > index + 1 else {
                return nil
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: value[(index + 1)..<semicolon]), as: UTF8.self)
            if name.hasPrefix("#") {
                let digits = name.dropFirst()
                let scalar =
                    digits.first == "x" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                guard let scalar, scalar > 0, Unicode.Scalar(scalar) != nil else { return nil }
                output += "&#\(scalar);"
            } else if let predefined = predefined[name] {
                output += "&#\(predefined);"
            } else if let value = HTMLEntities.value(named: name) {
                for scalar in value.unicodeScalars { output += "&#\(scalar.value);" }
            } else {
                return nil
            }
            index = semicolon + 1
        }
        return output
    }

    private static let predefined: [String: Int] = ["amp": 38, "lt": 60, "gt": 62, "quot": 34, "apos": 39]

    /// Whether `byte` can be in an entity's name: an ASCII letter, digit, `_`, `-`, `.`, `:`,
    /// or any byte of a non-ASCII character.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }
}
