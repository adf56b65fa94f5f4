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
/// The index (see `SearchIndexFile`) holds, for each article, its chunks: the runs of
/// characters between white space in its title and text, case folded (`articleChunks`, whose
/// tokenizer `tidings_chunks` is in `CSQLiteShims`). A search word never holds white space, so
/// every match lies whole in one chunk: a word's articles are those holding one of the chunks
/// that match it. The chunks are found in the vocabulary, each distinct chunk once (`chunk`),
/// through its own two indexes: `chunkWords` (unicode61, accents removed) finds the chunks where
/// a word starts, and `chunkTrigrams` (trigrams, two spaces after each chunk) the chunks holding
/// a word of three or more characters, checked against the chunk's text, or the trigrams that
/// begin with a one- or two-character word. An article's text is read only for a word longer
/// than what one chunk term holds (see `maxProbe`). The vocabulary grows with the words of the
/// feeds, not with their text, so indexing an article costs one term per distinct chunk, not
/// one per trigram. Quotes, operators and punctuation are never read as query syntax: every
/// term is quoted.
struct ArticleSearch {
    /// One word of the search and the ways it may match.
    struct Word: Equatable {
        /// An FTS5 query for the vocabulary's word index that matches the word as the start of a
        /// word; `nil` when the word holds anything the word index cuts words at (see
        /// `staysInOneWord`).
        var wordStart: String?
        /// How the vocabulary's trigram index finds the chunks holding the word.
        var substring: SubstringMatch
        /// The word lowercased, as the index folds it.
        var folded: String
    }

    /// How the vocabulary's trigram index finds the chunks holding one word.
    enum SubstringMatch: Equatable {
        /// An FTS5 query of the trigrams of `probe` (the word, or its first `maxProbe` characters),
        /// whose chunks are then checked to hold `probe`; `exact` when `probe` is the whole word,
        /// so that those chunks are exactly the word's; otherwise their articles' text is read.
        case trigrams(String, probe: String, exact: Bool)
        /// The chunks holding a trigram that begins with the word, between these two terms.
        case trigramsStarting(from: String, through: String)
        /// Not searched for as a substring (a short word of a script written with spaces).
        case none
    }

    /// The most trigrams of one word that a query asks the index for.
    static let maxTrigrams = 32

    /// The most characters of a word looked for in the chunks: every run of this many
    /// characters lies whole in one chunk term (`TIDINGS_CHUNK_MAX - TIDINGS_CHUNK_STEP + 1`).
    static let maxProbe = Int(TIDINGS_CHUNK_MAX - TIDINGS_CHUNK_STEP + 1)

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
            // Every chunk that holds the word holds all of its trigrams, so a sample of them
            // finds a superset that the chunk's text then decides.
            let probe = scalars.prefix(maxProbe)
            let starts = Array(0...(probe.count - 3))
            let step = max(1, (starts.count + maxTrigrams - 1) / maxTrigrams)
            var seen = Set<String>()
            var terms: [String] = []
            for start in stride(from: 0, to: starts.count, by: step) {
                var trigram = ""
                trigram.unicodeScalars.append(contentsOf: probe[start..<start + 3])
                if seen.insert(trigram).inserted { terms.append(quoted(trigram)) }
            }
            var probeText = ""
            probeText.unicodeScalars.append(contentsOf: probe)
            substring = .trigrams(
                terms.joined(separator: " "), probe: probeText, exact: probe.count == scalars.count)
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

    /// The texts of the vocabulary's chunks that match `word`, as a compound SELECT.
    private static func chunks(_ word: Word) -> (sql: String, arguments: StatementArguments) {
        var parts: [String] = []
        var arguments = StatementArguments()
        if let wordStart = word.wordStart {
            parts.append("SELECT text FROM chunk WHERE id IN (SELECT rowid FROM chunkWords WHERE chunkWords MATCH ?)")
            arguments += [wordStart]
        }
        switch word.substring {
        case .trigrams(let pattern, let probe, _):
            let holds =
                probe.unicodeScalars.count == 3
                // One trigram: every chunk whose trigrams hold it holds the word.
                ? ""
                : probe.unicodeScalars.allSatisfy(\.isASCII)
                    // The chunks are folded already, and SQLite's instr compares bytes.
                    ? " AND instr(text, ?) > 0" : " AND \(containsFunction.name)(text, ?)"
            parts.append(
                "SELECT text FROM chunk WHERE id IN (SELECT rowid FROM chunkTrigrams WHERE chunkTrigrams MATCH ?)"
                    + holds)
            arguments += [pattern]
            if !holds.isEmpty { arguments += [probe] }
        case .trigramsStarting(let from, let through):
            parts.append(
                "SELECT text FROM chunk WHERE id IN (SELECT doc FROM chunkTrigramTerms WHERE term >= ? AND term <= ?)")
            arguments += [from, through]
        case .none:
            break
        }
        return (parts.joined(separator: " UNION "), arguments)
    }

    /// The ids of the articles holding a chunk that matches `word`, as a SELECT of `id`.
    private static func articles(_ word: Word) -> (sql: String, arguments: StatementArguments) {
        let chunks = chunks(word)
        return ("SELECT doc AS id FROM articleChunkTerms WHERE term IN (\(chunks.sql))", chunks.arguments)
    }

    /// Whether the chunks decide `word` exactly: not when only a probe of a longer word was
    /// looked for.
    private static func isExact(_ word: Word) -> Bool {
        if case .trigrams(_, _, exact: false) = word.substring { return false }
        return true
    }

    /// The ids of the articles that match, as a compound SELECT, and its arguments: each
    /// indexed word's articles, intersected.
    func candidates() -> (sql: String, arguments: StatementArguments) {
        var selects: [String] = []
        var arguments = StatementArguments()
        for word in words.prefix(Self.maxIndexedWords) {
            let articles = Self.articles(word)
            selects.append(articles.sql)
            arguments += articles.arguments
        }
        return (selects.joined(separator: " INTERSECT "), arguments)
    }

    /// The conditions that confirm candidates: a word longer than a chunk term holds is read in
    /// the text, and every word past the indexed ones is looked up as the indexed ones are.
    func confirmations() -> [(sql: String, arguments: StatementArguments)] {
        words.enumerated().compactMap { index, word in
            if index < Self.maxIndexedWords {
                return Self.isExact(word) ? nil : Self.textCheck(word)
            }
            return Self.condition(word)
        }
    }

    /// `word` as a condition on the article in hand: it holds one of the word's chunks (and,
    /// for a word longer than a chunk term holds, its text holds the word, or a word starts
    /// with it).
    private static func condition(_ word: Word) -> (sql: String, arguments: StatementArguments) {
        let articles = articles(word)
        let lookup = (sql: "+article.id IN (\(articles.sql))", arguments: articles.arguments)
        guard !isExact(word), let check = textCheck(word) else { return lookup }
        return ("(\(lookup.sql) AND \(check.sql))", lookup.arguments + check.arguments)
    }

    /// For a word longer than a chunk term holds: a word of the article starts with it, or its
    /// title or text holds it.
    private static func textCheck(_ word: Word) -> (sql: String, arguments: StatementArguments)? {
        var alternatives: [String] = []
        var arguments = StatementArguments()
        if let wordStart = word.wordStart {
            alternatives.append(
                """
                article.id IN (SELECT doc FROM articleChunkTerms WHERE term IN (SELECT text FROM chunk WHERE id IN \
                (SELECT rowid FROM chunkWords WHERE chunkWords MATCH ?)))
                """)
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
    /// hand, for a walk of the date index (`ArticleRepository.searchWalksDates`): each word's
    /// articles are read once, into a set the walk looks ids up in.
    func walkConditions() -> [(sql: String, arguments: StatementArguments)] {
        words.map(Self.condition)
    }

    /// At most how many articles match, or about that: for each indexed word, how many
    /// articles hold each of its chunks (the index's row vocabulary counts them), summed, and
    /// the fewest of those over the words.
    func estimatedMatches(_ db: Database) throws -> Int {
        var fewest = Int.max
        for word in words.prefix(Self.maxIndexedWords) {
            let chunks = Self.chunks(word)
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT coalesce(sum(doc), 0) FROM articleChunkRows WHERE term IN (\(chunks.sql))",
                    arguments: chunks.arguments) ?? 0
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
