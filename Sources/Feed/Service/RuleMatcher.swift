import Foundation
public import Models
import Synchronization

/// An `ArticleRule` ready to test articles: its words and phrases folded once (case and
/// accents ignored), or its regular expression compiled once.
public struct RuleMatcher: Sendable {
    public let rule: ArticleRule
    private let terms: [String]
    private let expression: NSRegularExpression?
    private let stall = Stall()

    /// How long a regular expression may look at one text. A pattern with nested repetition
    /// (`(a+)+b`) can backtrack for hours on a few dozen characters a feed chose; past this,
    /// the match is stopped and the rule gives up for the rest of its run (`gaveUp`).
    static let budget: Duration = .milliseconds(100)

    /// Whether the rule's regular expression ran past `budget` on some text: it has caught
    /// nothing since, and its caller says so.
    public var gaveUp: Bool { stall.happened.load(ordering: .relaxed) }

    /// Set once a match has run past the budget; shared by the copies of one matcher.
    private final class Stall: Sendable {
        let happened = Atomic<Bool>(false)
    }

    /// - Throws: `FeedError.invalidRule` for a pattern with no word, or a regular expression
    ///   that does not compile (with the reason).
    public init(_ rule: ArticleRule) throws(FeedError) {
        self.rule = rule
        if rule.isRegex {
            do {
                expression = try NSRegularExpression(pattern: rule.pattern, options: [.caseInsensitive])
            } catch {
                throw .invalidRule("\"\(rule.pattern)\" is not a regular expression (\(error.localizedDescription))")
            }
            terms = []
        } else {
            expression = nil
            terms = Self.terms(rule.pattern)
            guard !terms.isEmpty else { throw .invalidRule("a rule needs a word to look for") }
        }
    }

    /// Words, and phrases in double quotes, folded.
    static func terms(_ pattern: String) -> [String] {
        var terms: [String] = []
        for (index, part) in pattern.components(separatedBy: "\"").enumerated() {
            if index % 2 == 1 {
                let phrase = fold(part).split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if !phrase.isEmpty { terms.append(phrase) }
            } else {
                terms += fold(part).split(whereSeparator: \.isWhitespace).map(String.init)
            }
        }
        return terms
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether the rule catches the article.
    public func matches(_ facts: ArticleFacts) -> Bool {
        let texts: [String]
        switch rule.field {
        case .title: texts = [facts.title]
        case .author: texts = [facts.authors]
        case .feed: texts = [facts.feedTitle]
        case .tag: texts = facts.tags
        case .link: texts = [facts.link]
        case .text: texts = [Self.plain(facts.text)]
        case .any: texts = [facts.title, Self.plain(facts.text)]
        }
        if let expression {
            return !gaveUp && texts.contains { text in search(expression, in: text) }
        }
        // Every term in one of the texts: a title rule reads the title, a tag rule each tag whole.
        if rule.field == .tag {
            return texts.contains { tag in
                terms.allSatisfy { Self.fold(tag) == $0 || Self.fold(tag).hasPrefix($0 + "/") }
            }
        }
        let folded = Self.fold(texts.joined(separator: "\n")).split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        return terms.allSatisfy { folded.contains($0) }
    }

    /// Whether `expression` matches somewhere in `text`, looked for within `budget` (ICU reports
    /// its progress while it backtracks, and stops when told).
    private func search(_ expression: NSRegularExpression, in text: String) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.budget)
        var found = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text))
        { result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if clock.now > deadline {
                stall.happened.store(true, ordering: .relaxed)
                stop.pointee = true
            }
        }
        return found && !gaveUp
    }

    /// HTML as plain text when it looks like HTML.
    private static func plain(_ text: String) -> String {
        text.contains("<") ? HTMLText.plainText(text) : text
    }
}
