import Foundation
import Testing

/// `items --search` through the real binary: substrings in every script, emoji, and the rule
/// `help items` states.
@Suite("tidings items --search", .serialized)
struct SearchTests {
    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>World</title>
        <item><title>今日は天気がいい</title><guid>1</guid><description>晴れ</description></item>
        <item><title>明日の天気</title><guid>2</guid><description>Ferris 🦀 in the rain</description></item>
        <item><title>JavaScript tips</title><guid>3</guid><description>Москва news</description></item>
        <item><title>Going places</title><guid>4</guid><description>Travel in C++</description></item>
        <item><title>Long ago</title><guid>5</guid><description>the zeppe line and a pelin</description></item>
        </channel></rss>
        """

    @Test("finds CJK mid-run, emoji, and substrings inside words in any script; short Latin words match word starts")
    func substrings() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed.write(to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/f.xml"]).status == 0)
            func titles(_ text: String) throws -> [String] {
                let result = try TidingsBinary.run(["--home", home.path, "--json", "-c", "items --search '\(text)'"])
                #expect(result.status == 0, "\(result.err)")
                let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
                let items = object?["items"] as? [[String: Any]] ?? []
                return items.compactMap { $0["title"] as? String }.sorted()
            }
            #expect(try titles("天気") == ["今日は天気がいい", "明日の天気"])
            #expect(try titles("晴れ") == ["今日は天気がいい"])
            #expect(try titles("🦀") == ["明日の天気"])
            #expect(try titles("script") == ["JavaScript tips"])
            #expect(try titles("МОСКВА") == ["JavaScript tips"])
            #expect(try titles("c++") == ["Going places"])
            #expect(try titles("go") == ["Going places"])
            #expect(try titles("zeppelin").isEmpty)
            let none = try TidingsBinary.run(["--home", home.path, "-c", "items --search zeppelin"])
            #expect(none.status == 0 && none.out == "no items match\n", "\(none.out)")
        }
    }

    @Test("a search of more than 100 words is a usage error; 100 words, or one very long word, are searched")
    func longSearches() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed.write(to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/f.xml"]).status == 0)
            func search(_ text: String) throws -> TidingsBinary.Result {
                try TidingsBinary.run(["--home", home.path, "-c", "items --search '\(text)'"])
            }
            let many = try search((0..<101).map { "w\($0)" }.joined(separator: " "))
            #expect(many.status == 1 && many.err.contains("at most 100 words (this has 101)"), "\(many.err)")
            let hundred = try search((0..<100).map { "w\($0)" }.joined(separator: " "))
            #expect(hundred.status == 0 && hundred.out == "no items match\n", "\(hundred.err)")
            let long = try search(String(repeating: "x", count: 100_000))
            #expect(long.status == 0 && long.out == "no items match\n", "\(long.err)")
        }
    }

    @Test("help items states the search rule")
    func helpStatesTheRule() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let help = try TidingsBinary.run(["--home", home.path, "-c", "help items"], environment: ["COLUMNS": "200"])
        // Read as words: where the summary wraps depends on its length and the width.
        let words = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("three or more characters"), "\(help.out)")
        #expect(words.contains("emoji"), "\(help.out)")
    }
}
