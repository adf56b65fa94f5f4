import Foundation
public import Models

/// An `ArticleRule` ready to test articles: its words and phrases folded once (case and
/// accents ignored), or its regular expression compiled once.
public struct RuleMatcher: Sendable {
    public let rule: ArticleRule
    private let terms: [String]
    private let expression: NSRegularExpression?

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
            return texts.contains { text in
                expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
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

    /// HTML as plain text when it looks like HTML.
    private static func plain(_ text: String) -> String {
        text.contains("<") ? HTMLText.plainText(text) : text
    }
}
