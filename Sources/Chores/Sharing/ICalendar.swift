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

    init(root: Component) { self.root = root }

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

        /// Removes every property that matches `predicate`.
        package mutating func removeProperties(where predicate: (Property) -> Bool) {
            items.removeAll { if case .property(let property) = $0 { predicate(property) } else { false } }
        }

        /// Removes every nested component that matches `predicate`.
        package mutating func removeComponents(where predicate: (Component) -> Bool) {
            items.removeAll { if case .component(let component) = $0 { predicate(component) } else { false } }
        }

        /// Adds a nested component before the first nested component (a `VTIMEZONE` goes before
        /// the `VTODO` that uses it), or at the end when there is none.
        package mutating func prepend(_ component: Component) {
            let index = items.firstIndex { if case .component = $0 { true } else { false } } ?? items.endIndex
            items.insert(.component(component), at: index)
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

        /// Adds a property after the last property, beside any of the same name.
        package mutating func add(_ property: Property) {
            let index = items.lastIndex { if case .property = $0 { true } else { false } }.map { $0 + 1 } ?? 0
            items.insert(.property(property), at: index)
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
