internal import CSQLiteShims
import Foundation
internal import GRDB

/// How a user's search text matches articles, and the SQL that finds them.
///
/// The text is cut into words at white space, and every word must occur in the article's title
/// or text, ignoring case:
/// - a word of three or more characters matches anywhere, inside other words too and in every
///   script (`script` finds "JavaScript", `天気予` finds "今日の天気予報");
/// - a shorter word matches where a word starts (`go` finds "Go" and "going", not "ago"), and
///   anywhere when it holds a character of a script written without spaces between words
///   (Chinese, Japanese, Korean, Thai, …) or anything but letters and digits (`天気`, `🦀`, `C#`);
/// - a word of letters and digits also matches the start of a word with its accents ignored
///   (`cafe` finds "Café").
///
/// Two FTS5 indexes serve this. `articleSearch` (unicode61, accents removed) finds word
/// starts. `articleSubstring` (trigram, `detail=none`) holds every three-character sequence of
/// each title and text: a long word's trigrams find the articles that hold all of them, and
/// the few whose trigrams are not in one run are dropped by reading the text (only for those the
/// word index did not already match). A one- or two-character word reads the trigram index's
/// vocabulary for the trigrams that begin with it; two spaces after each indexed text give
/// every character a trigram of its own. The trigram index's tokenizer (`tidings_trigram`, see
/// `CSQLiteShims`) keeps each trigram of a text once and none a word without white space
/// can ask for. Quotes, operators and punctuation are never read as
/// query syntax: every term is quoted.
struct ArticleSearch {
    /// One word of the search and the ways it may match.
    struct Word: Equatable {
        /// An FTS5 query for the word index that matches the word as the start of a word; `nil`
        /// when the word holds anything the word index cuts words at (see `staysInOneWord`).
        var wordStart: String?
        /// How the substring index finds the word.
        var substring: SubstringMatch
        /// The word lowercased, as the substring index folds it.
        var folded: String
    }

    /// How the substring index finds one word.
    enum SubstringMatch: Equatable {
        /// An FTS5 query of the word's trigrams; `exact` when the word is one trigram, so that
        /// every match holds it; otherwise matches are confirmed against the text.
        case trigrams(String, exact: Bool)
        /// The trigrams that begin with the word, between these two vocabulary terms.
        case trigramsStarting(from: String, through: String)
        /// Not searched for as a substring (a short word of a script written with spaces).
        case none
    }

    /// The text appended to every title and text in the substring index (see the type's
    /// documentation). Triggers and the indexer write it; it is part of the stored index.
    static let indexedSuffix = "  "

    /// The most trigrams of one word that a query asks the index for.
    static let maxTrigrams = 32

    let words: [Word]

    /// The search for `text`, or `nil` when it holds no word.
    /// `isOneWord` says whether the word index takes a word as one term (`isWordIndexTerm(_:in:)`
    /// asks SQLite; without a connection, the characters decide).
    init?(_ text: String, isOneWord: (String) -> Bool = { $0.unicodeScalars.allSatisfy(staysInOneWord) }) {
        var seen = Set<String>()
        let words = text.split(whereSeparator: \.isWhitespace).compactMap { Self.word($0, isOneWord: isOneWord) }.filter
        {
            seen.insert($0.folded).inserted
        }
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    /// How many words find candidates through the indexes; the others (a pasted sentence) are
    /// checked on those candidates, so that a long search stays one small compound SELECT.
    static let maxIndexedWords = 8

    /// Quotes and brackets around a word are the user's punctuation, not part of what is sought.
    private static let enclosing: Set<Character> = [
        "\"", "'", "“", "”", "‘", "’", "„", "«", "»", "‹", "›", "(", ")", "[", "]", "{", "}", "「", "」", "『", "』",
    ]

    /// The search for `text` as the word index of `db` reads it.
    static func on(_ db: Database, _ text: String) -> ArticleSearch? {
        ArticleSearch(text) { isWordIndexTerm($0, in: db) }
    }

    /// Whether the word index's tokenizer makes exactly one term of `word`, asked of SQLite
    /// itself: its Unicode tables are older than Swift's, and some characters Swift calls
    /// letters (New Tai Lue vowel signs, Vedic signs) still cut a word there.
    static func isWordIndexTerm(_ word: String, in db: Database) -> Bool {
        guard word.unicodeScalars.allSatisfy(staysInOneWord) else { return false }
        return tidings_word_index_terms(db.sqliteConnection, word, Int32(word.utf8.count)) == 1
    }

    static func word(_ raw: String.SubSequence, isOneWord: (String) -> Bool) -> Word? {
        var trimmed = raw[...]
        while let first = trimmed.first, enclosing.contains(first) { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, enclosing.contains(last) { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { return nil }
        // Composed (NFC), as feeds write text and as the word index keeps it: "café" typed or
        // pasted with a combining accent finds "Café".
        let text = String(trimmed).precomposedStringWithCanonicalMapping
        let folded = text.lowercased()
        let scalars = Array(folded.unicodeScalars)
        let lettersAndDigits = isOneWord(text)
        let wordStart = lettersAndDigits ? quoted(text) + "*" : nil
        let substring: SubstringMatch
        if scalars.count >= 3 {
            // Every match holds all of the word's trigrams, so a sample of them finds a superset
            // that the text then confirms: a pasted paragraph costs no more than a long word.
            let starts = Array(0...(scalars.count - 3))
            let step = max(1, (starts.count + maxTrigrams - 1) / maxTrigrams)
            var seen = Set<String>()
            var terms: [String] = []
            for start in stride(from: 0, to: starts.count, by: step) {
                var trigram = ""
                trigram.unicodeScalars.append(contentsOf: scalars[start..<start + 3])
                if seen.insert(trigram).inserted { terms.append(quoted(trigram)) }
            }
            substring = .trigrams(terms.joined(separator: " "), exact: scalars.count == 3)
        } else if !lettersAndDigits || scalars.contains(where: isUnspacedScript) {
            substring = .trigramsStarting(from: folded, through: folded + "\u{10FFFF}\u{10FFFF}")
        } else {
            substring = .none
        }
        return Word(wordStart: wordStart, substring: substring, folded: folded)
    }

    /// Whether the word index's tokenizer (unicode61, diacritics removed) keeps `scalar` inside a
    /// word: letters, numbers and private-use characters. It cuts words at everything else:
    /// combining marks (the vowel signs and viramas of Devanagari, Bengali, Tamil, …, all but a
    /// few Latin accents), joiners and symbols. A search word holding one would reach the index
    /// as a phrase of several words, which an index without positions refuses, so such a word is
    /// found through the substring index alone.
    static func staysInOneWord(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return false
        }
    }

    /// `text` as an FTS5 string: in double quotes, its own double quotes doubled.
    static func quoted(_ text: String) -> String {
        "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// Whether `scalar` belongs to a script written without spaces between words (or one whose
    /// words are searched by their parts): Han, kana, Hangul, Thai, Lao, Khmer, Myanmar, Tibetan,
    /// Bopomofo and Yi, with their punctuation and compatibility forms.
    static func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF,  // Thai, Lao
            0x0F00...0x0FFF,  // Tibetan
            0x1000...0x109F,  // Myanmar
            0x1100...0x11FF,  // Hangul Jamo
            0x1780...0x17FF,  // Khmer
            0x2E80...0x2FDF,  // CJK radicals
            0x3000...0x30FF,  // CJK punctuation, Hiragana, Katakana
            0x3100...0x31FF,  // Bopomofo, Hangul compatibility Jamo, Katakana extensions
            0x3400...0x4DBF,  // CJK extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xAC00...0xD7AF,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFF00...0xFFEF,  // half- and full-width forms
            0x20000...0x3FFFF:  // CJK extensions B onwards
            return true
        default:
            return false
        }
    }

    /// The ids of the articles that match, as a compound SELECT, and its arguments: for each
    /// word, its word-start matches with its substring candidates, and the words intersected.
    func candidates() -> (sql: String, arguments: StatementArguments) {
        var selects: [String] = []
        var arguments = StatementArguments()
        for word in words.prefix(Self.maxIndexedWords) {
            var parts: [String] = []
            if let wordStart = word.wordStart {
                parts.append("SELECT rowid AS id FROM articleSearch WHERE articleSearch MATCH ?")
                arguments += [wordStart]
            }
            switch word.substring {
            case .trigrams(let pattern, _):
                parts.append("SELECT rowid AS id FROM articleSubstring WHERE articleSubstring MATCH ?")
                arguments += [pattern]
            case .trigramsStarting(let from, let through):
                parts.append("SELECT doc AS id FROM articleSubstringTerms WHERE term >= ? AND term <= ?")
                arguments += [from, through]
            case .none:
                break
            }
            selects.append("SELECT id FROM (\(parts.joined(separator: " UNION ")))")
        }
        return (selects.joined(separator: " INTERSECT "), arguments)
    }

    /// The conditions that confirm candidates against the text: for a word found through
    /// several trigrams (they may lie apart in a match), and for every word past the indexed
    /// ones. The word starts a word, or the title or text holds it.
    func confirmations() -> [(sql: String, arguments: StatementArguments)] {
        words.enumerated().compactMap { index, word in
            let indexed = index < Self.maxIndexedWords
            if indexed, case .trigrams(_, exact: true) = word.substring { return nil }
            if indexed, case .trigramsStarting = word.substring { return nil }
            if indexed, word.substring == .none { return nil }
            return Self.confirmation(of: word)
        }
    }

    /// The word starts a word, or (unless it is a short word of a spaced script, which matches
    /// word starts only) the title or text holds it.
    private static func confirmation(of word: Word) -> (sql: String, arguments: StatementArguments)? {
        let wordStartClause = "article.id IN (SELECT rowid FROM articleSearch WHERE articleSearch MATCH ?)"
        if word.substring == .none {
            guard let wordStart = word.wordStart else { return nil }
            return (wordStartClause, [wordStart])
        }
        var alternatives: [String] = []
        var arguments = StatementArguments()
        if let wordStart = word.wordStart {
            alternatives.append(wordStartClause)
            arguments += [wordStart]
        }
        let holds = textHolds(word)
        alternatives.append(holds.sql)
        arguments += holds.arguments
        return ("(" + alternatives.joined(separator: " OR ") + ")", arguments)
    }

    /// The article's title or text holds the word, ignoring case.
    private static func textHolds(_ word: Word) -> (sql: String, arguments: StatementArguments) {
        let body = "coalesce(article.contentText, article.summary, '')"
        let sql =
            if word.folded.unicodeScalars.allSatisfy(\.isASCII) {
                // SQLite's lower() folds ASCII only, which is all an ASCII word needs.
                "instr(lower(article.title), ?) > 0 OR instr(lower(\(body)), ?) > 0"
            } else {
                "\(containsFunction.name)(article.title, ?) OR \(containsFunction.name)(\(body), ?)"
            }
        return ("(" + sql + ")", [word.folded, word.folded])
    }

    /// The same matches as `candidates()` with `confirmations()`, as conditions on the article in
    /// hand, for a walk of the date index (`ArticleRepository.searchWalksDates`): each indexed
    /// word starts a word there, or its substring candidates hold the article (and, for a word
    /// found through several trigrams, so does its text); the words past them are confirmed as
    /// there. Each index is read once, into a set the walk looks ids up in; no union is built.
    func walkConditions() -> [(sql: String, arguments: StatementArguments)] {
        words.enumerated().compactMap { index, word in
            guard index < Self.maxIndexedWords else { return Self.confirmation(of: word) }
            var alternatives: [String] = []
            var arguments = StatementArguments()
            if let wordStart = word.wordStart {
                alternatives.append("+article.id IN (SELECT rowid FROM articleSearch WHERE articleSearch MATCH ?)")
                arguments += [wordStart]
            }
            switch word.substring {
            case .trigrams(let pattern, let exact):
                let candidate = "+article.id IN (SELECT rowid FROM articleSubstring WHERE articleSubstring MATCH ?)"
                arguments += [pattern]
                if exact {
                    alternatives.append(candidate)
                } else {
                    let holds = Self.textHolds(word)
                    alternatives.append("(\(candidate) AND \(holds.sql))")
                    arguments += holds.arguments
                }
            case .trigramsStarting(let from, let through):
                alternatives.append(
                    "+article.id IN (SELECT doc FROM articleSubstringTerms WHERE term >= ? AND term <= ?)")
                arguments += [from, through]
            case .none:
                break
            }
            return ("(" + alternatives.joined(separator: " OR ") + ")", arguments)
        }
    }

    /// At most how many articles match, or about that, from the two indexes' vocabularies (how
    /// many articles hold each term, not which): for each indexed word, the articles holding a
    /// word it starts plus those holding the rarest of its trigrams, and the fewest of those.
    /// Read through the indexes' row vocabularies (migration v13), in a few milliseconds even
    /// for a word in every article.
    func estimatedMatches(_ db: Database) throws -> Int {
        var fewest = Int.max
        for word in words.prefix(Self.maxIndexedWords) {
            var count = 0
            if word.wordStart != nil {
                // The word index folds case and drops accents; the estimate does the same.
                let prefix = word.folded.folding(options: .diacriticInsensitive, locale: nil)
                count +=
                    try Int.fetchOne(
                        db, sql: "SELECT coalesce(sum(doc), 0) FROM articleSearchRows WHERE term >= ? AND term < ?",
                        arguments: [prefix, prefix + "\u{10FFFF}"]) ?? 0
            }
            switch word.substring {
            case .trigrams:
                let scalars = Array(word.folded.unicodeScalars)
                let trigrams = (0...(scalars.count - 3)).prefix(Self.maxTrigrams).map { start in
                    var trigram = ""
                    trigram.unicodeScalars.append(contentsOf: scalars[start..<start + 3])
                    return trigram
                }
                let placeholders = Array(repeating: "?", count: trigrams.count).joined(separator: ", ")
                let row = try Row.fetchOne(
                    db, sql: "SELECT count(*), min(doc) FROM articleSubstringRows WHERE term IN (\(placeholders))",
                    arguments: StatementArguments(trigrams))
                // A trigram no article holds: no article holds the word.
                if let row, row[0] as Int == Set(trigrams).count {
                    count += row[1] as Int? ?? 0
                }
            case .trigramsStarting(let from, let through):
                count +=
                    try Int.fetchOne(
                        db, sql: "SELECT coalesce(sum(doc), 0) FROM articleSubstringRows WHERE term >= ? AND term <= ?",
                        arguments: [from, through]) ?? 0
            case .none:
                break
            }
            fewest = min(fewest, count)
        }
        return fewest
    }

    /// `tidingsContainsFolded(text, word)`: whether `text`, lowercased, holds `word` (already
    /// lowercased), comparing Unicode scalars as the trigram index does. Registered on every
    /// connection; used only by queries, never by the schema, so other programs can still
    /// write the file.
    static let containsFunction = DatabaseFunction("tidingsContainsFolded", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let word = String.fromDatabaseValue(values[1]) else {
            return false
        }
        return text.lowercased().unicodeScalars.contains(word.unicodeScalars)
    }
}
