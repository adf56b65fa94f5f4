import Foundation
import Testing

/// Folders and tags: OPML folders read as tags and written back, feed tag and untag, lists by
/// tag, unread counts per tag, marking a tag or everything read, older than a date.
@Suite("tags and folders", .serialized)
struct TagTests {
    /// A list with nested folders, a feed in two folders, feeds between folders, and a folder
    /// whose name holds a slash and an ampersand.
    static let nested = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0">
          <head>
            <title>Mine</title>
          </head>
          <body>
            <outline type="rss" text="Top" title="Top" xmlUrl="https://a.test/top.xml"/>
            <outline text="Tech" title="Tech">
              <outline type="rss" text="LWN" title="LWN" xmlUrl="https://a.test/lwn.xml"/>
              <outline text="Swift" title="Swift">
                <outline type="rss" text="Swift.org" title="Swift.org" xmlUrl="https://a.test/swift.xml" htmlUrl="https://swift.org/"/>
                <outline type="rss" text="Forums" title="Forums" xmlUrl="https://a.test/forums.xml"/>
              </outline>
              <outline type="rss" text="HN" title="HN" xmlUrl="https://a.test/hn.xml"/>
            </outline>
            <outline text="News/Local &amp; more" title="News/Local &amp; more">
              <outline type="rss" text="Town" title="Town" xmlUrl="https://a.test/town.xml"/>
              <outline type="rss" text="LWN" title="LWN" xmlUrl="https://a.test/lwn.xml"/>
            </outline>
            <outline type="rss" text="Bottom" title="Bottom" xmlUrl="https://a.test/bottom.xml"/>
          </body>
        </opml>

        """

    static func run(_ lines: [String], home: URL) throws -> TidingsBinary.Result {
        try TidingsBinary.run(["--home", home.path, "--keep-going"] + lines.flatMap { ["-c", $0] })
    }

    @Test("an OPML list with nested folders is exported again with the same structure, line for line")
    func roundTrip() async throws {
        try await withSiteAndHome { site, home in
            let input = site.appendingPathComponent("in.opml")
            let output = site.appendingPathComponent("out.opml")
            try Self.nested.write(to: input, atomically: true, encoding: .utf8)
            let result = try Self.run(["feed import \(input.path)", "feed export \(output.path)"], home: home)
            #expect(result.status == 0, "\(result.err)")
            // Everything but the head (its title and date) is the same, byte for byte.
            func body(_ text: String) -> String { text.components(separatedBy: "<body>").last ?? "" }
            let written = try String(contentsOf: output, encoding: .utf8)
            #expect(body(written) == body(Self.nested), "\(written)")
            // And again, after the list went through a second home: the same folders.
            let second = site.appendingPathComponent("second")
            let again = site.appendingPathComponent("again.opml")
            #expect(
                try Self.run(["feed import \(output.path)", "feed export \(again.path)"], home: second).status == 0)
            #expect(body(try String(contentsOf: again, encoding: .utf8)) == body(Self.nested))
        }
    }

    @Test("folders are tags: listed with their counts, a folder taking the folders inside it")
    func tagsFromFolders() async throws {
        try await withSiteAndHome { site, home in
            let input = site.appendingPathComponent("in.opml")
            try Self.nested.write(to: input, atomically: true, encoding: .utf8)
            let result = try Self.run(
                ["feed import \(input.path)", "feed tags", "feed list --tag Tech"], home: home)
            #expect(result.status == 0, "\(result.err)")
            let lines = result.out.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("News\\/Local & more ") && $0.hasSuffix(" 2     0/0") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("Tech ") && $0.hasSuffix(" 4     0/0") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("Tech/Swift ") && $0.hasSuffix(" 2     0/0") }, "\(lines)")
            let listed = lines.drop { !$0.hasPrefix("ID") }.dropFirst()
            #expect(listed.map { $0.split(separator: " ")[1] } == ["LWN", "Swift.org", "Forums", "HN"])
        }
    }

    @Test("feed tag and untag; items and feed list by tag; unread per tag; marking a tag and older articles read")
    func tagging() async throws {
        try await withSiteAndHome { site, home in
            try NavigationTests.feed("One", count: 3, prefix: "One").write(
                to: site.appendingPathComponent("one.xml"), atomically: true, encoding: .utf8)
            try NavigationTests.feed("Two", count: 3, prefix: "Two").write(
                to: site.appendingPathComponent("two.xml"), atomically: true, encoding: .utf8)
            try NavigationTests.feed("Three", count: 2, prefix: "Three").write(
                to: site.appendingPathComponent("three.xml"), atomically: true, encoding: .utf8)
            let added = try Self.run(
                [
                    "feed add \(site.path)/one.xml", "feed add \(site.path)/two.xml",
                    "feed add \(site.path)/three.xml", "feed tag 1,2 news 'Long reads'", "feed tag 3 news/local",
                ], home: home)
            #expect(added.status == 0, "\(added.err)")
            let json = try TidingsBinary.run(["--home", home.path, "--json", "-c", "feed tags"])
            #expect(json.out.contains(#"{"feeds":3,"tag":"news","total":8,"unread":8}"#), "\(json.out)")
            #expect(json.out.contains(#"{"feeds":2,"tag":"Long reads","total":6,"unread":6}"#), "\(json.out)")
            let items = try Self.run(["items --tag news/local", "items --tag 'Long reads'"], home: home)
            let rows = items.out.split(separator: "\n").filter { !$0.hasPrefix("ID") }
            #expect(rows.filter { $0.contains("Three ") }.count == 2)
            #expect(rows.filter { $0.contains("One ") || $0.contains("Two ") }.count == 6)
            // Story N is dated 21 - N November: before the 20th is story 2 of feeds 1 and 2.
            let marked = try Self.run(
                ["item mark --all read --tag news --before 2026-11-20", "feed list --unread", "feed tags"], home: home)
            #expect(marked.out.hasPrefix("marked 2 items tagged news dated before 2026-11-20 read"), "\(marked.out)")
            let news = marked.out.split(separator: "\n").first { $0.hasPrefix("news ") }
            #expect(news?.split(separator: " ").map(String.init) == ["news", "3", "6/8"], "\(marked.out)")
            let untagged = try Self.run(["feed untag 1 news", "feed untag 2", "feed list --tag news"], home: home)
            #expect(untagged.out.contains("removed 1 tag from feed #1"), "\(untagged.out)")
            #expect(untagged.out.contains("removed 2 tags from feed #2"), "\(untagged.out)")
            let listed = untagged.out.split(separator: "\n").drop { !$0.hasPrefix("ID") }.dropFirst()
            #expect(listed.map { $0.split(separator: " ")[0] } == ["3"], "\(untagged.out)")
            let all = try Self.run(["item mark --all read", "feed list --unread"], home: home)
            #expect(all.out.hasPrefix("marked 6 items read"), "\(all.out)")
            #expect(all.out.contains("no feeds match"))
        }
    }

    @Test("bad tags and ids are refused in words, and nothing changes")
    func refusals() async throws {
        try await withSiteAndHome { site, home in
            try NavigationTests.feed("One", count: 1).write(
                to: site.appendingPathComponent("one.xml"), atomically: true, encoding: .utf8)
            #expect(try Self.run(["feed add \(site.path)/one.xml"], home: home).status == 0)
            let result = try Self.run(
                [
                    "feed tag 1", "feed tag 1,9 news", "feed tag 1 '//'",
                    "feed tag 1 \(String(repeating: "x", count: 201))",
                    "items --tag ''", "item mark --all star", "item mark 1 --all read", "feed tags",
                ], home: home)
            #expect(
                result.err.split(separator: "\n") == [
                    "error: missing <tag>; usage: feed tag <ID> <tag...>",
                    "error: no feed #9",
                    "error: a tag needs a name between its slashes",
                    "error: a tag holds at most 200 characters",
                    "error: --tag: a tag cannot be empty",
                    #"error: only "read" applies with --all"#,
                    "error: mark many articles with: item mark --all read [--feed ID] [--tag TAG] [--view NAME] [--before DATE] (no ids with --all)",
                ], "\(result.err)")
            #expect(result.out.contains(#"no tags yet; give a feed one with "feed tag <ID> <tag>""#))
        }
    }
}
