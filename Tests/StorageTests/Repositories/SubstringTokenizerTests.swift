import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("The substring index's tokenizer")
struct SubstringTokenizerTests {
    /// Texts whose case folding goes beyond ASCII: Latin with accents, Turkish dotted capitals,
    /// German sharp s, Greek sigmas, Cyrillic, Armenian, Cherokee (folded to its capitals), full-width
    /// Latin, CJK, emoji with modifiers and joiners, and white space of every ASCII kind.
    static let texts = [
        "The QUICK brown fox\tjumps\nover the lazy dog. The quick BROWN fox again!",
        "ÉLAN À LA CAFÉ Ærøskøbing Øresund Straße STRASSE ẞ",
        "İSTANBUL ıı Iİ KIRMIZI",
        "ΟΔΥΣΣΕΥΣ ὈΔΥΣΣΕΎΣ σς Σ",
        "МОСКВА Москва москва ЁЖ",
        "ԱՐԵՎ Արև",
        "ᏣᎳᎩ ꮳꮃꭹ",
        "ＡＢＣ ａｂｃ",
        "今日は天気がいい 明日の天気",
        "👍🏽 👩‍👩‍👧 🦀🦀🦀 x",
        "a b  c\r\n\u{0B}\u{0C}d",
    ]

    /// One term of one document.
    struct Term: Hashable, CustomStringConvertible {
        var doc: Int64
        var term: String
        var description: String { "\(doc) \(term.unicodeScalars.map { String($0.value, radix: 16) })" }
    }

    /// Each document's terms in an index with `tokenizer`, white-space-free ones apart.
    func terms(_ db: Database, tokenizer: String, texts: [String]) throws -> (plain: Set<Term>, spaced: Set<Term>) {
        let table = "t_" + tokenizer
        try db.execute(
            sql: "CREATE VIRTUAL TABLE \(table) USING fts5(body, content='', detail=none, tokenize='\(tokenizer)')")
        try db.execute(sql: "CREATE VIRTUAL TABLE \(table)_terms USING fts5vocab(\(table), 'instance')")
        for (index, text) in texts.enumerated() {
            try db.execute(sql: "INSERT INTO \(table)(rowid, body) VALUES (?, ?)", arguments: [index + 1, text])
        }
        var plain = Set<Term>()
        var spaced = Set<Term>()
        for row in try Row.fetchAll(db, sql: "SELECT term, doc FROM \(table)_terms") {
            let term = Term(doc: row["doc"], term: row["term"])
            if term.term.unicodeScalars.contains(where: { [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"].contains($0) }) {
                spaced.insert(term)
            } else {
                plain.insert(term)
            }
        }
        return (plain, spaced)
    }

    @Test("it holds exactly the white-space-free trigrams of FTS5's trigram tokenizer, folded the same way")
    func sameTrigramsAsFTS5() async throws {
        let database = try AppDatabase.inMemory()
        try await database.write(source: .app) { db in
            let ours = try terms(db, tokenizer: "tidings_trigram", texts: Self.texts)
            let theirs = try terms(db, tokenizer: "trigram", texts: Self.texts)
            #expect(ours.plain == theirs.plain)
            #expect(ours.plain.count > 60)
            // White space only ever follows a term's first one or two characters, as spaces.
            for term in ours.spaced {
                let scalars = Array(term.term.unicodeScalars)
                #expect(scalars.count == 3, "\(term)")
                #expect(scalars.first != " " && scalars.last == " ", "\(term)")
                #expect(scalars.allSatisfy { $0 == " " || !$0.properties.isWhitespace }, "\(term)")
            }
            // The last characters of a word have a term that starts with them.
            let expected = [(10, "🦀🦀 "), (11, "a  "), (11, "b  "), (11, "c  "), (1, "ox "), (1, "x  "), (10, "🏽  ")]
            #expect(ours.spaced.isSuperset(of: expected.map { Term(doc: Int64($0.0), term: $0.1) }))
        }
    }

    @Test("a document's terms are removed by its delete, whatever its bytes hold")
    func deletesRepeatInserts() async throws {
        let database = try AppDatabase.inMemory()
        let awkward =
            Self.texts + [
                "before\u{0}after", String(repeating: "long words repeated ", count: 5_000), "", "ab",
                "\u{FFFD}\u{FFFF}",
            ]
        try await database.write(source: .app) { db in
            try db.execute(
                sql: "CREATE VIRTUAL TABLE t USING fts5(body, content='', detail=none, tokenize='tidings_trigram')")
            try db.execute(sql: "CREATE VIRTUAL TABLE t_terms USING fts5vocab(t, 'row')")
            for (index, text) in awkward.enumerated() {
                try db.execute(sql: "INSERT INTO t(rowid, body) VALUES (?, ?)", arguments: [index + 1, text])
            }
            // Bytes that are not UTF-8, as another program could have stored them.
            try db.execute(sql: "INSERT INTO t(rowid, body) VALUES (100, CAST(x'41ff42c328e28228f09f' AS TEXT))")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t_terms")! > 0)
            for (index, text) in awkward.enumerated() {
                try db.execute(
                    sql: "INSERT INTO t(t, rowid, body) VALUES ('delete', ?, ?)", arguments: [index + 1, text])
            }
            try db.execute(
                sql: "INSERT INTO t(t, rowid, body) VALUES ('delete', 100, CAST(x'41ff42c328e28228f09f' AS TEXT))")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t_terms") == 0)
            try db.execute(sql: "INSERT INTO t(t, rank) VALUES ('integrity-check', 0)")
        }
    }
}
