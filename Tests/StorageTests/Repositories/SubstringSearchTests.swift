import Foundation
import GRDB
import Models
import Testing

@testable import Storage

@Suite("Substring search in every script")
struct SubstringSearchTests {
    /// One feed whose articles hold the text each test searches for, keyed by their guid.
    func database(_ articles: [(key: String, title: String, text: String)]) async throws -> (
        ArticleRepository, AppDatabase
    ) {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let repository = ArticleRepository(database: database)
        _ = try await repository.merge(
            articles.enumerated().map { index, item in
                article(feedID, item.key, age: Double(index + 1), title: item.title, text: item.text)
            }, intoFeed: feedID, now: now)
        return (repository, database)
    }

    func keys(_ repository: ArticleRepository, _ text: String) async throws -> [String] {
        let found = try await repository.articles(matching: ArticleQuery(search: text)).map(\.article.uniqueID)
        // The count runs the same query: it must agree with the list.
        #expect(try await repository.count(matching: ArticleQuery(search: text)) == found.count, "\(text)")
        return found.map { String($0.dropFirst("guid-".count)) }.sorted()
    }

    let corpus: [(key: String, title: String, text: String)] = [
        ("ja1", "今日は天気がいい", "晴れのち曇り"),
        ("ja2", "明日の天気", "雨"),
        ("zh", "北京新闻", "今天天气很好"),
        ("ko", "서울에서 만나요", "날씨가 좋아요"),
        ("emoji", "Rust news", "Ferris 🦀 says hi 👍🏽"),
        ("js", "JavaScript tips", "Closures"),
        ("ru", "Новости", "Москва и Петербург"),
        ("cafe", "Café culture", "Espresso"),
        ("cpp", "C++ and C# compared", "Templates"),
        ("apart", "Airships", "the zeppe line and a pelin"),
        ("cyr", "Буквы", "абвг вгд"),
        ("zeppelin", "Zeppelin history", "Hindenburg"),
        ("go", "Going places", "Travel"),
        ("ago", "Long ago", "History"),
    ]

    @Test("CJK words are found in the middle of a run, in titles and text, and at the end of one")
    func cjk() async throws {
        let (repository, database) = try await database(corpus)
        #expect(try await keys(repository, "天気") == ["ja1", "ja2"])  // mid-run, and the title's last two
        #expect(try await keys(repository, "天気が") == ["ja1"])
        #expect(try await keys(repository, "天") == ["ja1", "ja2", "zh"])  // 今天天气 too
        #expect(try await keys(repository, "曇り") == ["ja1"])  // the text's last two characters
        #expect(try await keys(repository, "雨") == ["ja2"])  // a text of one character
        #expect(try await keys(repository, "天气") == ["zh"])
        #expect(try await keys(repository, "新闻") == ["zh"])
        #expect(try await keys(repository, "날씨") == ["ko"])
        #expect(try await keys(repository, "에서") == ["ko"])
        #expect(try await keys(repository, "天気 いい") == ["ja1"])  // every word must match
        #expect(try await keys(repository, "天気 雨") == ["ja2"])
        try await checkSearchIndexes(database)
    }

    @Test("emoji match, alone and in sequences with modifiers")
    func emoji() async throws {
        let (repository, _) = try await database(corpus)
        #expect(try await keys(repository, "🦀") == ["emoji"])
        #expect(try await keys(repository, "👍🏽") == ["emoji"])
        #expect(try await keys(repository, "👍") == ["emoji"])
        #expect(try await keys(repository, "🍕").isEmpty)
    }

    @Test("long words match inside other words, ignoring case in every script")
    func insideWords() async throws {
        let (repository, _) = try await database(corpus)
        #expect(try await keys(repository, "script") == ["js"])
        #expect(try await keys(repository, "SCRIPT") == ["js"])
        #expect(try await keys(repository, "avaScr") == ["js"])
        #expect(try await keys(repository, "москва") == ["ru"])
        #expect(try await keys(repository, "ПЕТЕР") == ["ru"])
        #expect(try await keys(repository, "овост") == ["ru"])
    }

    @Test("a long word is confirmed against the text: its trigrams apart do not match")
    func trigramsApart() async throws {
        let (repository, _) = try await database(corpus)
        // "the zeppe line and a pelin" holds every trigram of "zeppelin", but not the word.
        #expect(try await keys(repository, "zeppelin") == ["zeppelin"])
        #expect(try await keys(repository, "ZEPPELIN") == ["zeppelin"])
        #expect(try await keys(repository, "Петербург") == ["ru"])
        #expect(try await keys(repository, "бургпетер").isEmpty)
        // Every trigram of "абвгд" is in "абвг вгд", apart: confirmed by the Unicode-aware check.
        #expect(try await keys(repository, "АБВГД").isEmpty)
        #expect(try await keys(repository, "БВГ") == ["cyr"])
        #expect(try await keys(repository, "абвг") == ["cyr"])
    }

    @Test("short words of spaced scripts match word starts; accents are ignored there")
    func shortWordsAndAccents() async throws {
        let (repository, _) = try await database(corpus)
        #expect(try await keys(repository, "go") == ["go"])  // "Going", not "ago"
        #expect(try await keys(repository, "cafe") == ["cafe"])  // the word index ignores accents
        #expect(try await keys(repository, "café") == ["cafe"])
        #expect(try await keys(repository, "afé") == ["cafe"])  // inside a word, with its accent
    }

    @Test("punctuation is part of what is sought; quotes and brackets around a word are not")
    func punctuation() async throws {
        let (repository, _) = try await database(corpus)
        #expect(try await keys(repository, "C++") == ["cpp"])
        #expect(try await keys(repository, "C#") == ["cpp"])
        #expect(try await keys(repository, "\"zeppelin\"") == ["zeppelin"])
        #expect(try await keys(repository, "(javascript)") == ["js"])
        #expect(try await keys(repository, "“Rust”") == ["emoji"])
        #expect(try await keys(repository, "\"\"").isEmpty)
        #expect(try await keys(repository, "x\"y OR z*").isEmpty)
    }

    @Test("words past the indexed ones are checked on the candidates, each by its own rule")
    func manyWords() async throws {
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
        let (repository, _) = try await database([
            ("all", words.joined(separator: " "), "india juliett 天気"),
            ("eight", words.joined(separator: " "), "india ago"),
        ])
        let eight = words.joined(separator: " ")
        #expect(try await keys(repository, eight) == ["all", "eight"])
        #expect(try await keys(repository, eight + " india") == ["all", "eight"])
        #expect(try await keys(repository, eight + " india juliett") == ["all"])
        #expect(try await keys(repository, eight + " ULIET") == ["all"])  // inside a word, any case
        #expect(try await keys(repository, eight + " ju") == ["all"])  // a word start…
        #expect(try await keys(repository, eight + " li").isEmpty)  // …not inside "charlie"
        #expect(try await keys(repository, eight + " 天気") == ["all"])
        #expect(try await keys(repository, eight + " kilo").isEmpty)
        // Repeated words count once.
        #expect(try await keys(repository, (words + words).joined(separator: " ")) == ["all", "eight"])
    }

    @Test("a pasted paragraph as one long word is found where it occurs, and only there")
    func longWord() async throws {
        let long = String(repeating: "abcdefghij", count: 200) + "天気"
        let (repository, _) = try await database([
            ("whole", "Long", "before " + long + " after"), ("most", "Long", String(long.dropLast(3))),
        ])
        #expect(try await keys(repository, long) == ["whole"])
        #expect(try await keys(repository, String(long.dropFirst(5))) == ["whole"])
        #expect(try await keys(repository, String(long.dropLast(4))) == ["most", "whole"])
        #expect(try await keys(repository, long + "x").isEmpty)
    }

    @Test("the indexes follow updates and deletes of indexed articles")
    func followsChanges() async throws {
        let (repository, database) = try await database(corpus)
        #expect(try await keys(repository, "天気") == ["ja1", "ja2"])
        let feedID = try #require(try await FeedRepository(database: database).all().first?.id)
        _ = try await repository.merge(
            [article(feedID, "ja2", age: 2, title: "明日は晴れ", text: "🌞")], intoFeed: feedID, now: now)
        #expect(try await keys(repository, "天気") == ["ja1"])
        #expect(try await keys(repository, "🌞") == ["ja2"])
        #expect(try await keys(repository, "明日は") == ["ja2"])
        try await FeedRepository(database: database).remove(id: feedID)
        #expect(try await keys(repository, "明日").isEmpty)
        #expect(try await keys(repository, "天").isEmpty)
        try await checkSearchIndexes(database)
    }

    @Test("indexing runs in batches, each its own transaction, and resumes where it stopped")
    func batches() async throws {
        let database = try AppDatabase.inMemory()
        let feedID = try await addFeed(database)
        let repository = ArticleRepository(database: database)
        _ = try await repository.merge(
            (1...25).map { article(feedID, "\($0)", title: "東京 \($0)") }, intoFeed: feedID, now: now)
        #expect(try await repository.updateSearchIndex(batchSize: 10) == 25)
        #expect(try await repository.updateSearchIndex(batchSize: 10) == 0)
        #expect(try await repository.count(matching: ArticleQuery(search: "東京")) == 25)
        try await checkSearchIndexes(database)
    }

    @Test("words with spacing marks, enclosing marks or joiners are found, never refused by the word index")
    func marksAndJoiners() async throws {
        let (repository, database) = try await database([
            ("hi", "भारत की ख़बरें", "नमस्ते दुनिया"),  // vowel signs are spacing marks (Mc)
            ("ta", "தமிழ் செய்திகள்", "வணக்கம்"),
            ("fa", "می‌خواهم بخوانم", "خبرها"),  // a zero-width non-joiner inside the word
            ("enclosed", "x\u{20DD}y keys", "a\u{200D}b"),
            ("tailue", "ᦂᦱᦓ", "a\u{1CF2}b"),
            ("plain", "India", "Hello"),
            ("cafe", "Café culture", "Espresso"),
        ])
        #expect(try await keys(repository, "भारत") == ["hi"])
        #expect(try await keys(repository, "नमस्ते") == ["hi"])
        #expect(try await keys(repository, "தமிழ்") == ["ta"])
        #expect(try await keys(repository, "می‌خواهم") == ["fa"])
        #expect(try await keys(repository, "x\u{20DD}y") == ["enclosed"])
        #expect(try await keys(repository, "a\u{200D}b") == ["enclosed"])
        #expect(try await keys(repository, "ᦂᦱᦓ") == ["tailue"])  // letters to Swift, not to SQLite's tables
        #expect(try await keys(repository, "a\u{1CF2}b") == ["tailue"])
        #expect(try await keys(repository, "भा") == ["hi"])  // two scalars, found through the trigram vocabulary
        #expect(try await keys(repository, "cafe\u{301}") == ["cafe"])  // a combining accent: the composed word
        try await checkSearchIndexes(database)
    }

    /// Whether a search for `query` walks the date index.
    func walks(_ db: Database, _ query: ArticleQuery) throws -> Bool {
        let text = try #require(query.search)
        let search = try #require(ArticleSearch.on(db, text))
        return try ArticleRepository.searchWalksDates(db, query, search)
    }

    @Test("walking the date index finds exactly what reading the matches finds, in the same order")
    func bothPlans() async throws {
        var items = corpus
        for index in 0..<40 {
            items.append(("common\(index)", "Parser news \(index)", "the stream parser of the day, café \(index)"))
        }
        let (repository, database) = try await database(items)
        _ = try await repository.count(matching: ArticleQuery(search: "index"))  // both indexes up to date
        let searches = [
            "天気", "天気が", "天", "script", "avaScr", "москва", "🦀", "👍🏽", "cafe", "Café", "go", "C#", "C++",
            "zeppelin", "zeppe", "parser", "PARSER", "pars", "parser stream", "stream parser 天気", "the", "e",
            "a b c d e f g h i j", "xyzzy", "day, café",
        ]
        for text in searches {
            let since = now.addingTimeInterval(-20 * 86_400)  // the newer articles only
            for query in [ArticleQuery(search: text), ArticleQuery(search: text, since: since)] {
                let (reading, walking) = try await database.read { db in
                    let plans = [false, true].map {
                        ArticleRepository.sql(
                            for: query, select: "article.id", search: ArticleSearch.on(db, text), walksDates: $0)
                    }
                    let ids = try plans.map { try Int64.fetchAll(db, sql: $0.0, arguments: $0.1) }
                    return (ids.first, ids.last)
                }
                #expect(reading == walking, "\(text)")
                if query.since == nil {
                    #expect(
                        reading?.isEmpty == false
                            || ["xyzzy", "a b c d e f g h i j", "stream parser 天気"].contains(text), "\(text)")
                }
            }
        }
        // The walk is chosen for a word in most articles, never for a rare one, and it walks the
        // date index instead of reading each match's row.
        try await database.read { db in
            #expect(try walks(db, ArticleQuery(search: "parser")))
            #expect(try walks(db, ArticleQuery(search: "the")))
            #expect(try !walks(db, ArticleQuery(search: "zeppelin")))
            #expect(try !walks(db, ArticleQuery(search: "天気")))
            #expect(try !walks(db, ArticleQuery(unreadOnly: true, search: "parser")))
            let (sql, arguments) = ArticleRepository.sql(
                for: ArticleQuery(search: "parser"), select: "article.id", search: ArticleSearch.on(db, "parser"),
                walksDates: true)
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map {
                $0["detail"] as String
            }
            #expect(plan.first?.hasPrefix("SCAN article USING") == true, "\(plan)")
            #expect(plan.first?.hasSuffix("INDEX article_sortDate") == true, "\(plan)")
        }
    }

    @Test("no character makes a search fail: a sample of every assigned plane, between letters and alone")
    func everyCharacterSearches() async throws {
        let (repository, _) = try await database(corpus)
        var failures: [String] = []
        // Letters to Swift that cut a word in SQLite's older Unicode tables (New Tai Lue vowel
        // signs, Vedic signs), and a sample of every assigned plane.
        let planes =
            Array(0x19B0...0x19C9) + Array(0x1CF2...0x1CF3)
            + Array(stride(from: UInt32(0x21), through: 0x3FFFF, by: 41)) + Array(0xE0000...0xE01EF)
        for value in planes {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in value % 5 == 0 ? ["a\(scalar)b", "\(scalar)"] : ["a\(scalar)b"] {
                do {
                    _ = try await repository.count(matching: ArticleQuery(search: text))
                } catch {
                    let code = String(value, radix: 16, uppercase: true)
                    failures.append("U+\(code) in \(text.debugDescription): \(error)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test(
        "words are parsed into word-start and substring matches",
        arguments: [
            ("swift", #""swift"*"#, ArticleSearch.SubstringMatch.trigrams(#""swi" "wif" "ift""#, exact: false)),
            ("Go", #""Go"*"#, .none),
            ("abc", #""abc"*"#, .trigrams(#""abc""#, exact: true)),
            ("aaaa", #""aaaa"*"#, .trigrams(#""aaa""#, exact: false)),
            ("天気", #""天気"*"#, .trigramsStarting(from: "天気", through: "天気\u{10FFFF}\u{10FFFF}")),
            ("🦀", nil, .trigramsStarting(from: "🦀", through: "🦀\u{10FFFF}\u{10FFFF}")),
            ("a\"b", nil, .trigrams(#""a""b""#, exact: true)),
            ("C#", nil, .trigramsStarting(from: "c#", through: "c#\u{10FFFF}\u{10FFFF}")),
            ("रा", nil, .trigramsStarting(from: "रा", through: "रा\u{10FFFF}\u{10FFFF}")),
            ("école", #""école"*"#, .trigrams(#""éco" "col" "ole""#, exact: false)),
            ("e\u{301}cole", #""école"*"#, .trigrams(#""éco" "col" "ole""#, exact: false)),
        ] as [(String, String?, ArticleSearch.SubstringMatch)])
    func parsing(text: String, wordStart: String?, substring: ArticleSearch.SubstringMatch) throws {
        let word = try #require(ArticleSearch(text)?.words.first)
        #expect(word.wordStart == wordStart)
        #expect(word.substring == substring)
    }

    @Test("text without a word searches for nothing", arguments: ["", "   ", "\"\" ''", "( )"])
    func noWords(text: String) {
        #expect(ArticleSearch(text) == nil)
    }
}
