import Foundation

/// A command's words split into positional arguments and `--options`, checked against the
/// options the command accepts.
///
/// An option takes one value (`--title T`), none (`--unread`), or, for `--every`, a count and
/// a unit (`--every 2 weeks`, or `--every week` for a count of 1) and, after `on`, every word up
/// to the next option (`--every 2 weeks on mon, thu --note x`). A value may start with `-`
/// (`--since -2w`). An unknown option is a usage error that suggests the nearest known one.
struct ArgumentList {
    /// How an option takes its value.
    enum Kind {
        /// A switch without a value.
        case flag
        case value
        /// A value that may be left out: the next word unless there is none or it is another
        /// `--option` (`task list --list` alone lists the lists).
        case optionalValue
        /// A count and a unit (`--every 2 weeks`, `--every weekday`), and the words of an `on`
        /// clause after them (`--every month on the last friday`).
        case countAndUnit
    }

    /// Positional words, in order.
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    /// Options of kind `.optionalValue` given without their value.
    private var bare: Set<String> = []

    /// Splits `words` for `command`, which accepts `options`. After `literalAfter` positional
    /// words, every word is positional, options included (`alias NAME COMMAND...`).
    init(_ words: [String], command: String, options: [String: Kind] = [:], literalAfter: Int? = nil)
        throws(CommandError)
    {
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if let literalAfter, positional.count >= literalAfter {
                positional.append(word)
                continue
            }
            guard word.hasPrefix("--"), word.count > 2 else {
                positional.append(word)
                continue
            }
            let name = String(word.dropFirst(2))
            guard let kind = options[name] else {
                let hint = Suggestion.nearest(to: name, in: Array(options.keys)).map { " (did you mean \"--\($0)\"?)" }
                let known =
                    options.isEmpty
                    ? "" : "; it accepts " + options.keys.sorted().map { "--" + $0 }.joined(separator: ", ")
                throw .usage("\(command) has no option \"\(word)\"\(hint ?? known)")
            }
            guard values[name] == nil, !bare.contains(name) else {
                throw .usage("\(command): \(word) is given twice")
            }
            switch kind {
            case .flag:
                values[name] = ""
            case .value:
                guard index < words.count else { throw .usage("\(command): \(word) needs a value") }
                values[name] = words[index]
                index += 1
            case .optionalValue:
                if index < words.count, !words[index].hasPrefix("--") {
                    values[name] = words[index]
                    index += 1
                } else {
                    bare.insert(name)
                }
            case .countAndUnit:
                guard index < words.count else {
                    throw .usage("\(command): \(word) needs a count and a unit, like \(word) 2 weeks")
                }
                if Double(words[index]) != nil {
                    guard index + 1 < words.count, !words[index + 1].hasPrefix("--") else {
                        throw .usage("\(word) \(words[index]) needs a unit: day, week, month or year")
                    }
                }
                let length = Self.countAndUnitLength(words[index...])
                values[name] = words[index..<index + length].joined(separator: " ")
                index += length
            }
        }
    }

    /// How many of `words` (those after a `.countAndUnit` option) are its value: a number
    /// (whole or not: the frequency rules say what is wrong with 1.5) and the unit after it, or
    /// a lone word (`week`, `weekday`); then, when the next word is `on`, it and every word up to
    /// the next `--option` (`2 weeks on mon, thu`).
    static func countAndUnitLength(_ words: ArraySlice<String>) -> Int {
        guard let first = words.first else { return 0 }
        var length = min(Double(first) != nil ? 2 : 1, words.count)
        if words.dropFirst(length).first?.lowercased() == "on" {
            length += 1
            length += words.dropFirst(length).prefix { !$0.hasPrefix("--") }.count
        }
        return length
    }

    /// These words over `base` (a saved view's options): an option given here wins, the rest of
    /// `base`'s are kept; the positional words are these.
    func merged(over base: ArgumentList) -> ArgumentList {
        var merged = self
        merged.values = base.values.merging(values) { _, own in own }
        return merged
    }

    /// The options given, by name.
    var options: [String: String] { values }

    /// Whether the option was given.
    func has(_ name: String) -> Bool { values[name] != nil || bare.contains(name) }

    /// Whether an `.optionalValue` option was given without its value.
    func isBare(_ name: String) -> Bool { bare.contains(name) }

    /// The value of an option, if given.
    func value(_ name: String) -> String? { values[name] }

    /// The value of an option as a positive whole number.
    func positiveInt(_ name: String, atMost limit: Int = 1_000_000) throws(CommandError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), number > 0, number <= limit else {
            throw .usage("--\(name) needs a whole number from 1 to \(limit) (got \"\(text)\")")
        }
        return number
    }

    /// The value of an option as an id.
    func id(_ name: String) throws(CommandError) -> Int64? {
        guard let text = values[name] else { return nil }
        return try Self.id(text, what: "--\(name)")
    }

    /// The value of an option as ids, ranges and lists (`--feed 4,5`); empty when not given.
    func ids(_ name: String) throws(CommandError) -> [Int64] {
        guard let text = values[name] else { return [] }
        return try Self.ids(text, what: "--\(name)")
    }

    /// Positional words past `count`, which the command does not take, are an error.
    func expectPositional(atMost count: Int, usage: String) throws(CommandError) {
        guard positional.count <= count else {
            let extra = positional.dropFirst(count).joined(separator: " ")
            throw .usage("unexpected \"\(extra)\"; usage: \(usage)")
        }
    }

    /// The positional word at `index`, required.
    func positional(_ index: Int, name: String, usage: String) throws(CommandError) -> String {
        guard index < positional.count else { throw .usage("missing <\(name)>; usage: \(usage)") }
        return positional[index]
    }

    /// The most ids one list of ranges may stand for.
    static let maxIDs = 100_000

    /// Ids as a user lists them: `7`, `#7`, a range `812-815`, or several joined by commas
    /// (`4,5`, `1-3,9`), in the order written, each once.
    static func ids(_ text: String, what: String = "id") throws(CommandError) -> [Int64] {
        var ids: [Int64] = []
        var seen = Set<Int64>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let first = try id(String(bounds[0]), what: what, within: text)
            let last = bounds.count == 2 ? try id(String(bounds[1]), what: what, within: text) : first
            guard first <= last else {
                throw .usage("\(what) range \(part) runs backwards; write it \(last)-\(first)")
            }
            guard last - first < Int64(maxIDs), ids.count + Int(last - first) < maxIDs else {
                throw .usage("\(text) stands for more than \(maxIDs) ids")
            }
            for id in first...last where seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    private static func id(_ text: String, what: String, within whole: String) throws(CommandError) -> Int64 {
        do {
            return try id(text, what: what)
        } catch {
            throw .usage("\(what) must be an id like 3, a range like 3-7 or a list like 3,5 (got \"\(whole)\")")
        }
    }

    /// An id as the lists show it (`7` or `#7`).
    static func id(_ text: String, what: String = "id") throws(CommandError) -> Int64 {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard let id = Int64(digits), id > 0 else { throw .usage("\(what) must be an id like 3 (got \"\(text)\")") }
        return id
    }
}
