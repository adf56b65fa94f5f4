import Foundation
import Testing

/// Settings and aliases kept in the database: set, unset, their sources, and what they change
/// (the order next reads in, the pager, the browser); aliases run their command with the words
/// typed after them.
@Suite("settings and aliases", .serialized)
struct SettingTests {
    static func run(_ lines: [String], home: URL, environment: [String: String] = [:]) throws -> TidingsBinary.Result {
        try TidingsBinary.run(
            ["--home", home.path, "--keep-going"] + lines.flatMap { ["-c", $0] }, environment: environment)
    }

    @Test("set lists every setting with its source; a value is checked, kept across processes, and unset")
    func setAndUnset() async throws {
        try await withSiteAndHome { _, home in
            let first = try Self.run(
                ["set order oldest-first", "set ordr x", "set refresh-interval 99999", "set pager 'less -S'"],
                home: home, environment: ["BROWSER": "w3m"])
            #expect(
                first.err.split(separator: "\n") == [
                    #"error: no setting "ordr" (did you mean "order"?); "set" lists them"#,
                    #"error: refresh-interval: minutes: 0 (never), or 0.05 to 10080 (got "99999")"#,
                ])
            let listed = try Self.run(["set", "set pager"], home: home, environment: ["BROWSER": "w3m"])
            let rows = listed.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(rows.contains(["order", "oldest-first", "set"]), "\(rows)")
            #expect(rows.contains(["pager", "less", "-S", "set"]))
            #expect(rows.contains(["browser", "w3m", "$BROWSER"]))
            #expect(rows.contains(["refresh-interval", "0", "default"]))
            #expect(listed.out.contains("pager = less -S  (set)\nthe command long articles are paged through"))
            let unset = try Self.run(["unset pager", "unset nope"], home: home)
            #expect(unset.out == "pager = less -R  (default)\n", "\(unset.out)")
            #expect(unset.err.hasPrefix(#"error: no setting "nope""#))
        }
    }

    @Test(
        "order oldest-first makes next read every unread article oldest first; browser is the command item open starts")
    func settingsTakeEffect() async throws {
        try await withSiteAndHome { site, home in
            try NavigationTests.setUp(site, home, count: 3)
            let opened = site.appendingPathComponent("opened.txt")
            let result = try Self.run(
                [
                    "set order oldest-first", "next --no-pager", "set browser 'echo %s >\(opened.path)'", "item open 1",
                ], home: home, environment: ["BROWSER": "false"])
            #expect(result.status == 0, "\(result.err)")
            #expect(NavigationTests.titles(result.out) == ["Story 2"], "\(result.out)")
            #expect((try? String(contentsOf: opened, encoding: .utf8)) == "https://n.test/0\n")
        }
    }

    @Test(
        "an alias runs its command with the words typed after it, keeps its options as words, and never hides a command"
    )
    func aliases() async throws {
        try await withSiteAndHome { site, home in
            try NavigationTests.setUp(site, home, count: 3)
            let result = try Self.run(
                [
                    "alias catchup item mark --all read", "alias ur items --unread", "alias", "ur --limit 1",
                    "catchup --feed 1", "ur", "alias feed x", "alias bad nope", "alias twice ur", "unalias ur", "ur",
                    "alias '' items", "alias '   ' items",
                ], home: home)
            let out = result.out.split(separator: "\n").map(String.init)
            #expect(out.contains("catchup = item mark --all read") && out.contains("ur = items --unread"), "\(out)")
            #expect(out.contains("1–1 of 3; more (or Enter) for the next page"), "\(out)")
            #expect(out.contains("marked 3 items of feed #1 read"))
            #expect(out.contains("no items match"), "\(out)")
            #expect(
                result.err.split(separator: "\n") == [
                    "error: feed is a command; an alias cannot hide it",
                    #"error: unknown command "nope"; type "help" for the list"#,
                    #"error: unknown command "ur"; type "help" for the list"#,
                    #"error: unknown command "ur"; type "help" for the list"#,
                    "error: an alias is a word of letters, digits, - and _ (at most 50)",
                    "error: an alias is a word of letters, digits, - and _ (at most 50)",
                ], "\(result.err)")
        }
    }
}

@Suite("automatic refresh in a terminal", .serialized)
struct AutoRefreshTerminalTests {
    @Test("with refresh-interval set, an open session refreshes and names what arrived before the next prompt")
    func refreshesWhileOpen() async throws {
        try await withSiteAndHome { site, home in
            let file = site.appendingPathComponent("n.xml")
            try NavigationTests.feed("News", count: 1).write(to: file, atomically: true, encoding: .utf8)
            let setUp = try SettingTests.run(["feed add \(file.path)", "set refresh-interval 0.05"], home: home)
            #expect(setUp.status == 0, "\(setUp.err)")
            let terminal = try TerminalSession(arguments: ["--home", home.path])
            #expect(terminal.waitFor("tidings> "))
            try NavigationTests.feed("News", count: 3).write(to: file, atomically: true, encoding: .utf8)
            // The notice waits for the next prompt: Enter until it comes (3 s interval).
            var seen = false
            for _ in 0..<40 where !seen {
                terminal.type("\r")
                seen = terminal.waitFor("2 new: News 2", seconds: 1)
            }
            #expect(seen, "\(terminal.transcript)")
            terminal.type("items --new\r")
            #expect(terminal.waitFor("Story 2"))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }
}

@Suite("retention through the binary", .serialized)
struct RetentionCommandTests {
    @Test(
        "keep-items and feed keep: a refresh purges what retention lets go, never a starred one, and it does not come back"
    )
    func retention() async throws {
        try await withSiteAndHome { site, home in
            let file = site.appendingPathComponent("n.xml")
            try NavigationTests.feed("News", count: 6).write(to: file, atomically: true, encoding: .utf8)
            try NavigationTests.feed("Other", count: 3, prefix: "Other").write(
                to: site.appendingPathComponent("o.xml"), atomically: true, encoding: .utf8)
            let setUp = try SettingTests.run(
                [
                    "feed add \(file.path)", "feed add \(site.path)/o.xml", "item mark 6 star", "set keep-items 2",
                    "feed keep 2 --items 0", "feed keep 1", "feed purge",
                ], home: home)
            #expect(setUp.status == 0, "\(setUp.err)")
            #expect(setUp.out.contains("feed #1 keeps 2 articles (the default); read ones for ever (the default)"))
            #expect(setUp.out.contains("purged 3 articles"), "\(setUp.out)")
            // The feed gains an article and still lists the purged ones: they stay away.
            try NavigationTests.feed("News", count: 6).replacingOccurrences(
                of: "<title>News</title>",
                with:
                    "<title>News</title><item><title>Newest</title><guid>n</guid><pubDate>Sun, 22 Nov 2026 08:00:00 GMT</pubDate></item>"
            ).write(to: file, atomically: true, encoding: .utf8)
            let refreshed = try SettingTests.run(["feed refresh", "items --feed 1", "items --feed 2"], home: home)
            #expect(refreshed.out.contains("refreshed 2 feeds: 1 new item"), "\(refreshed.out)")
            #expect(refreshed.out.contains("  purged 1 old article"), "\(refreshed.out)")
            let titles = refreshed.out.split(separator: "\n").compactMap { line in
                line.split(separator: "  ").last.map(String.init)
            }
            #expect(titles.contains("Newest") && titles.contains("Story 0") && titles.contains("Story 5"), "\(titles)")
            #expect(!titles.contains("Story 1") && !titles.contains("Story 3"))
            #expect(titles.filter { $0.hasPrefix("Other") }.count == 3)
        }
    }
}

@Suite("the color setting in a terminal", .serialized)
struct ColorSettingTests {
    /// The output of `feed list` in a colour-capable pseudo-terminal (TERM set, NO_COLOR unset).
    static func feedList(home: URL) throws -> String {
        let terminal = try TerminalSession(arguments: ["--home", home.path], environment: [:], unset: ["NO_COLOR"])
        try #require(terminal.waitFor("tidings> "))
        terminal.type("feed list\r")
        try #require(terminal.waitFor("tidings> "))
        let output = terminal.lastOutput
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
        return output
    }

    @Test("color never keeps a terminal's output plain; auto colours it again")
    func colorNever() async throws {
        try await withSiteAndHome { site, home in
            try NavigationTests.setUp(site, home, count: 1)
            #expect(try Self.feedList(home: home).contains("\u{1B}["))
            #expect(try SettingTests.run(["set color never"], home: home).status == 0)
            let plain = try Self.feedList(home: home)
            #expect(!plain.contains("\u{1B}[1m") && plain.contains("News"), "\(plain.debugDescription)")
            #expect(try SettingTests.run(["set color auto"], home: home).status == 0)
            #expect(try Self.feedList(home: home).contains("\u{1B}[1m"))
        }
    }
}
