import Foundation
import Testing

/// Moving through articles as a newsboat or mail(1) user does: next, prev, read without an id,
/// more, Enter, ids as ranges and lists, and a numbered link opened. Driven through the binary.
@Suite("reading on: next, prev, more, ranges", .serialized)
struct NavigationTests {
    /// A feed of `count` stories, the first the newest: story N gets id N + 1 when it is the
    /// first feed added.
    static func feed(_ title: String, count: Int, prefix: String = "Story") -> String {
        let items = (0..<count).map { index in
            "<item><title>\(prefix) \(index)</title><guid>\(prefix)-\(index)</guid>"
                + "<description>&lt;p&gt;Body \(index): &lt;a href=\"https://n.test/\(index)/a\"&gt;one&lt;/a&gt; "
                + "&lt;a href=\"https://n.test/\(index)/b\"&gt;two&lt;/a&gt;&lt;/p&gt;</description>"
                + "<link>https://n.test/\(index)</link>"
                + "<pubDate>Sat, \(21 - index) Nov 2026 08:00:00 GMT</pubDate></item>"
        }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>\(items)</channel></rss>"
    }

    /// `lines` run in one process, each with -c, going on after a failure.
    static func run(_ lines: [String], home: URL, environment: [String: String] = [:]) throws -> TidingsBinary.Result {
        try TidingsBinary.run(
            ["--home", home.path, "--keep-going"] + lines.flatMap { ["-c", $0] }, environment: environment)
    }

    /// The article titles in `output`, in order (the bold first line of each, a "Story N" here).
    static func titles(_ output: String, prefix: String = "Story") -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix(prefix + " ") }.map(String.init)
    }

    static func setUp(_ site: URL, _ home: URL, count: Int = 5) throws {
        try feed("News", count: count).write(
            to: site.appendingPathComponent("n.xml"), atomically: true, encoding: .utf8)
        let added = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/n.xml"])
        #expect(added.status == 0, "\(added.err)")
    }

    @Test("next reads on from the page items showed, in its order, marking each read; at the end it says so")
    func nextFollowsTheList() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home)
            #expect(try Self.run(["item mark 4 read"], home: home).status == 0)
            let result = try Self.run(
                ["items --limit 2 --page 2", "next --no-pager", "next --no-pager", "next --no-pager"], home: home)
            // Page 2 holds ids 3 and 4; 4 is read already, so after 3 comes 5; then nothing.
            #expect(Self.titles(result.out) == ["Story 2", "Story 4"], "\(result.out)")
            #expect(result.err == "error: no more unread articles in this list\n")
            #expect(result.status == 1)
            let unread = try Self.run(["items --unread"], home: home)
            #expect(
                !unread.out.contains("Story 2") && !unread.out.contains("Story 4") && unread.out.contains("Story 0"))
        }
    }

    @Test("with no list shown, next and read without an id take every unread article, newest first")
    func nextWithoutList() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home)
            let result = try Self.run(["next --no-pager", "read --no-pager", "n --no-pager"], home: home)
            #expect(Self.titles(result.out) == ["Story 0", "Story 1", "Story 2"], "\(result.out)")
        }
    }

    @Test("prev goes back through the list once every earlier article is read, and says when it is at the first")
    func previous() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home)
            let result = try Self.run(
                [
                    "prev", "items --unread", "next --no-pager", "next --no-pager", "next --no-pager",
                    "prev --no-pager", "prev --no-pager", "prev --no-pager",
                ], home: home)
            #expect(
                Self.titles(result.out) == ["Story 0", "Story 1", "Story 2", "Story 1", "Story 0"], "\(result.out)")
            #expect(
                result.err.split(separator: "\n") == [
                    "error: prev goes back from an article shown: none is yet",
                    "error: this is the first article of the list",
                ])
        }
    }

    @Test("prev goes to the nearest unread article before the one shown, passing read ones")
    func previousSkipsRead() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home)
            // Newest first: 1 (Story 0), 2, 3 (read), 4 (shown), 5. Before 4 come 3, read, then 2.
            let result = try Self.run(["item mark 3 read", "read 4 --no-pager", "prev --no-pager"], home: home)
            #expect(Self.titles(result.out) == ["Story 3", "Story 1"], "\(result.out)")
        }
    }

    @Test("more shows the next page of the list and refuses past the last one")
    func more() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home)
            let result = try Self.run(["more", "items --limit 2", "more", "more", "more"], home: home)
            let rows = result.out.split(separator: "\n").filter { $0.contains("Story") }.map {
                $0.split(separator: " ").first.map(String.init) ?? ""
            }
            #expect(rows == ["1", "2", "3", "4", "5"], "\(result.out)")
            #expect(result.out.contains("1–2 of 5; more (or Enter) for the next page"))
            #expect(
                result.err.split(separator: "\n") == [
                    "error: more continues a list: show one with items first",
                    "error: that was the last page of the list (5 items)",
                ])
        }
    }

    @Test("ids take ranges and lists: item mark, read, items --feed; a backward or bad range is refused")
    func ranges() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home, count: 6)
            try Self.feed("Other", count: 2, prefix: "Other").write(
                to: site.appendingPathComponent("o.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/o.xml"]).status == 0)
            let marked = try Self.run(["item mark 2-4,6 star", "items --starred"], home: home)
            #expect(marked.out.hasPrefix("marked 4 items starred"), "\(marked.out)")
            let starred = marked.out.split(separator: "\n").filter { $0.contains("Story") }
            #expect(starred.count == 4)
            let read = try Self.run(["read 7 1,3 --no-pager"], home: home)
            #expect(Self.titles(read.out, prefix: "Other") == ["Other 0"], "\(read.out)")
            #expect(Self.titles(read.out) == ["Story 0", "Story 2"], "\(read.out)")
            let other = try #require(read.out.firstRange(of: "Other 0"))
            let story = try #require(read.out.firstRange(of: "Story 0"))
            #expect(other.lowerBound < story.lowerBound, "ids are shown in the order written")
            let both = try Self.run(["items --feed 1,2 --limit 100", "items --feed 2"], home: home)
            let lines = both.out.split(separator: "\n")
            #expect(lines.filter { $0.contains("Story ") }.count == 6, "\(both.out)")
            #expect(lines.filter { $0.contains("Other 0") || $0.contains("Other 1") }.count == 4, "\(both.out)")
            let refused = try Self.run(["item mark 4-2 read", "read x-3", "items --feed 9,1"], home: home)
            #expect(
                refused.err.split(separator: "\n") == [
                    "error: an item id range 4-2 runs backwards; write it 2-4",
                    #"error: an item id must be an id like 3, a range like 3-7 or a list like 3,5 (got "x-3")"#,
                    "error: no feed #9",
                ], "\(refused.err)")
        }
    }

    @Test("item open ID N opens link N as item show numbers it; a missing link is named")
    func openNumberedLink() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home, count: 1)
            let opened = site.appendingPathComponent("opened.txt")
            let browser = ["BROWSER": "echo %s > '\(opened.path)'"]
            let shown = try Self.run(["read 1 --no-pager"], home: home)
            #expect(shown.out.contains("[2] https://n.test/0/b"), "\(shown.out)")
            let result = try Self.run(["item open 1 2"], home: home, environment: browser)
            #expect(result.status == 0, "\(result.err)")
            #expect((try? String(contentsOf: opened, encoding: .utf8)) == "https://n.test/0/b\n")
            let missing = try Self.run(["item open 1 3", "item open 1 x"], home: home, environment: browser)
            #expect(
                missing.err.split(separator: "\n") == [
                    "error: item #1 has 2 links; there is no link 3",
                    #"error: N must be a link number like 2, as item show lists them (got "x")"#,
                ])
        }
    }

    @Test("in a terminal, Enter after a page shows the next page, and after an article the next unread one")
    func enterReadsOn() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home)
            let terminal = try TerminalSession(arguments: ["--home", home.path])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("items --limit 2\r")
            #expect(terminal.waitFor("1–2 of 5"))
            terminal.type("\r")
            #expect(terminal.waitFor("3–4 of 5"), "\(terminal.transcript)")
            terminal.type("read 3\r")
            #expect(terminal.waitFor("Body 2"))
            terminal.type("\r")
            #expect(terminal.waitFor("Body 3"), "\(terminal.transcript)")
            terminal.type("\r")
            #expect(terminal.waitFor("Body 4"), "\(terminal.transcript)")
            // After another command, Enter does nothing: no article and no error follows.
            terminal.type("task list\r")
            #expect(terminal.waitFor("no tasks"))
            terminal.type("\r")
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
            let afterTasks = terminal.transcript.components(separatedBy: "no tasks").last ?? ""
            #expect(!afterTasks.contains("Story") && !afterTasks.contains("error"), "\(afterTasks)")
        }
    }
}

/// What a refresh brought: named by feed in its summary, how many arrived already read, and
/// `items --new`.
@Suite("what's new", .serialized)
struct WhatsNewTests {
    @Test("a refresh names the feeds that brought articles and says how many arrived read; items --new lists them")
    func whatsNew() async throws {
        try await withSiteAndHome { site, home in
            let one = site.appendingPathComponent("one.xml")
            let two = site.appendingPathComponent("two.xml")
            try NavigationTests.feed("One", count: 2, prefix: "One").write(to: one, atomically: true, encoding: .utf8)
            try NavigationTests.feed("Two", count: 1, prefix: "Two").write(to: two, atomically: true, encoding: .utf8)
            let added = try NavigationTests.run(
                ["feed add \(one.path)", "feed add \(two.path)", "items --new"], home: home)
            // The last add is what is new.
            #expect(added.out.contains("Two 0") && !added.out.contains("One 0"), "\(added.out)")
            // Feed one gains two items, one of them dated last year (it arrives read); feed two one.
            let old =
                "<item><title>One old</title><guid>old</guid><pubDate>Mon, 03 Nov 2025 08:00:00 GMT</pubDate></item>"
            let fresh =
                "<item><title>One fresh</title><guid>fresh</guid><pubDate>Sun, 22 Nov 2026 08:00:00 GMT</pubDate></item>"
            try NavigationTests.feed("One", count: 2, prefix: "One")
                .replacingOccurrences(of: "<title>One</title>", with: "<title>One</title>" + fresh + old)
                .write(to: one, atomically: true, encoding: .utf8)
            try NavigationTests.feed("Two", count: 2, prefix: "Two").write(to: two, atomically: true, encoding: .utf8)
            let refreshed = try NavigationTests.run(["feed refresh", "items --new --limit 100"], home: home)
            #expect(
                refreshed.out.contains(
                    "refreshed 2 feeds: 3 new items, 1 of them older than six months and already read, 0 not modified, 0 failed\n  new: One 2, Two 1; items --new lists them"
                ),
                "\(refreshed.out)")
            let rows = refreshed.out.split(separator: "\n").filter { $0.contains("●") || $0.contains("One old") }
            #expect(
                rows.count == 3 && rows.contains { $0.contains("One fresh") } && rows.contains { $0.contains("Two 1") })
        }
    }
}
