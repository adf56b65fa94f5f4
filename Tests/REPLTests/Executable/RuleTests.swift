import Foundation
import Testing

/// Rules (newsboat's killfile): new articles marked read or hidden at feed add and refresh,
/// hidden ones staying away while their feed lists them, a dry run over stored articles, and
/// the fields, phrases and regular expressions a rule looks for.
@Suite("rules", .serialized)
struct RuleTests {
    static func run(_ lines: [String], home: URL, json: Bool = false) throws -> TidingsBinary.Result {
        try TidingsBinary.run(
            ["--home", home.path, "--keep-going"] + (json ? ["--json"] : []) + lines.flatMap { ["-c", $0] })
    }

    /// A feed of `titles`, the first the newest; each with an author, a link and a text.
    static func feed(_ title: String, _ titles: [String]) -> String {
        let items = titles.enumerated().map { index, item in
            "<item><title>\(item)</title><guid>\(item)</guid><author>ann@example.com (Ann \(index))</author>"
                + "<link>https://r.test/\(index)</link><description>Body of \(item.lowercased()).</description>"
                + "<pubDate>Sat, \(21 - index) Nov 2026 08:00:00 GMT</pubDate></item>"
        }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>\(items)</channel></rss>"
    }

    static func rows(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.contains("●") || $0.hasPrefix(" ") }.map(String.init)
    }

    @Test("a hide rule deletes what it catches at feed add and refresh, and it stays away while the feed lists it")
    func hideStaysHidden() async throws {
        try await withSiteAndHome { site, home in
            let file = site.appendingPathComponent("f.xml")
            try Self.feed("News", ["Sponsored: buy now", "Real news", "Other"]).write(
                to: file, atomically: true, encoding: .utf8)
            let first = try Self.run(["rule add hide sponsored", "feed add \(file.path)", "items"], home: home)
            #expect(first.out.contains(#"added feed #1 "News": 3 items (3 new; rules hid 1)"#), "\(first.out)")
            #expect(!first.out.contains("buy now") && first.out.contains("Real news"))
            // The feed changes (so it is parsed again) and still lists the hidden article, with
            // a new one the rule catches too.
            try Self.feed("News", ["Another SPONSORED post", "Sponsored: buy now", "Real news", "Other"]).write(
                to: file, atomically: true, encoding: .utf8)
            let again = try Self.run(["feed refresh", "items", "rule list"], home: home)
            #expect(again.out.contains("refreshed 1 feed: 1 new item (rules hid 1), 0 not modified"), "\(again.out)")
            #expect(!again.out.contains("buy now") && !again.out.contains("Another"), "\(again.out)")
            let rule = again.out.split(separator: "\n").last { $0.contains("sponsored") }
            #expect(rule?.split(separator: " ").map(String.init) == ["1", "hide", "title", "sponsored", "2"])
            let json = try Self.run(["feed refresh 1"], home: home, json: true)
            #expect(json.out.contains(#""rules":{"hidden":0,"read":0}"#), "\(json.out)")
        }
    }

    @Test("read rules by field, phrase and regular expression; the first rule that catches decides")
    func fields() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed("Café Weekly", ["Alpha release", "Beta notes", "Gamma ray", "Delta force", "Epsilon"]).write(
                to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            let result = try Self.run(
                [
                    "rule add read 'ann 1' --in author", "rule add read '\"of gamma\"' --in text",
                    "rule add read '^https://r\\.test/3$' --in link --regex", "rule add hide CAFE --in feed --dry-run",
                    "feed add \(site.path)/f.xml", "items --unread",
                ], home: home)
            #expect(result.status == 0, "\(result.err)")
            // Beta (ann 1), Gamma (the phrase in its text) and Delta (its link) are read.
            #expect(result.out.contains("rules marked 3 read"), "\(result.out)")
            let unread = result.out.components(separatedBy: "ID ").last ?? ""
            #expect(unread.contains("Alpha") && unread.contains("Epsilon"))
            #expect(!unread.contains("Beta") && !unread.contains("Gamma") && !unread.contains("Delta"))
            let dry = try Self.run(["rule add hide cafe --in feed --dry-run", "rule list"], home: home)
            #expect(dry.out.hasPrefix(#"hide what has "cafe" in the feed would catch 5 stored items"#), "\(dry.out)")
            #expect(
                !dry.out.contains(#"rule #4"#)
                    && dry.out.split(separator: "\n").filter { $0.contains(" read ") }.count == 3)
        }
    }

    @Test("a dry run never counts a starred article for hiding, and saves nothing")
    func starredNeverHidden() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed("News", ["One ad", "Two ad"]).write(
                to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            let result = try Self.run(
                [
                    "feed add \(site.path)/f.xml", "item mark 1 star", "rule add hide ad --dry-run",
                    "rule add read ad --dry-run", "rule list",
                ],
                home: home)
            #expect(result.out.contains("would catch 1 stored item\n  #2 Two ad"), "\(result.out)")
            #expect(result.out.contains("would catch 2 stored items"), "\(result.out)")
            #expect(result.out.hasSuffix("no rules; add one with \"rule add hide <pattern>\"\n"))
        }
    }

    @Test("rule test shows what a rule would catch, for a pattern or a saved rule, and saves nothing")
    func ruleTest() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed("News", ["One ad", "Two ad", "Three"]).write(
                to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            let result = try Self.run(
                [
                    "feed add \(site.path)/f.xml", "rule test read ad", "rule add read three --dry-run",
                    "rule add hide Two", "rule test 1", "rule test 9", "rule list",
                ],
                home: home)
            #expect(
                result.out.contains(
                    "mark read what has \"ad\" in the title would catch 2 stored items\n  #2 Two ad\n  #1 One ad"),
                "\(result.out)")
            #expect(result.out.contains("hide what has \"Two\" in the title would catch 1 stored item\n  #2 Two ad"))
            #expect(result.err == "error: no rule #9\n", "\(result.err)")
            // Only the rule added is listed: the tests saved nothing.
            let rows = result.out.split(separator: "\n").filter { $0.contains(/^\s*\d+\s+(read|hide)\s/) }
            #expect(rows.count == 1, "\(result.out)")
        }
    }

    @Test("bad rules are refused in words")
    func refusals() async throws {
        try await withSiteAndHome { _, home in
            let result = try Self.run(
                [
                    "rule add maybe x", "rule add hide x --in body", "rule add hide '(' --regex",
                    "rule add hide '\"\"'",
                    "rule add hide", "rule remove 7", "rule remove x",
                ], home: home)
            let errors = result.err.split(separator: "\n").map(String.init)
            #expect(errors.count == 7, "\(errors)")
            #expect(errors[0].hasPrefix(#"error: a rule either marks read or hides: "maybe" is neither"#))
            #expect(errors[1] == #"error: --in takes one of title, author, feed, tag, link, text, any (got "body")"#)
            #expect(errors[2].hasPrefix(#"error: "(" is not a regular expression"#))
            #expect(errors[3] == "error: a rule needs a word to look for")
            #expect(
                errors[4]
                    == "error: missing <pattern>; usage: rule add <read|hide> <pattern> [--in FIELD] [--regex] [--dry-run]"
            )
            #expect(errors[5] == "error: no rule #7")
            #expect(errors[6] == #"error: a rule id must be an id like 3 (got "x")"#)
        }
    }

    @Test(
        "a regular expression that backtracks without end on a feed's text is stopped: the add finishes, other rules still act, the dry run says why",
        .timeLimit(.minutes(2))
    )
    func runawayExpression() async throws {
        try await withSiteAndHome { site, home in
            // (a+)+b against forty a's and no b: some 2^40 ways to fail, hours of ICU's time.
            let runaway = String(repeating: "a", count: 40) + "!"
            try Self.feed("News", [runaway, "Sponsored post", "Real news"]).write(
                to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            let added = try Self.run(
                ["rule add read '(a+)+b' --regex", "rule add hide sponsored", "feed add \(site.path)/f.xml"], home: home
            )
            #expect(added.status == 0, "\(added.err)")
            #expect(added.out.contains("3 items (3 new; rules hid 1, stopped #1, too slow)"), "\(added.out)")
            let test = try Self.run(["rule test 1"], home: home)
            #expect(test.status == 1)
            #expect(test.err.contains("ran longer than") && test.err.contains("(a+)+"), "\(test.err)")
        }
    }
}
