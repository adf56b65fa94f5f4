import Foundation
import Testing

/// Saved searches: the built-in Today, Unread and Starred, views saved with items options,
/// listed with their counts, used by items, next and item mark, replaced and removed.
@Suite("views", .serialized)
struct ViewTests {
    static func run(_ lines: [String], home: URL, json: Bool = false) throws -> TidingsBinary.Result {
        try TidingsBinary.run(
            ["--home", home.path, "--keep-going"] + (json ? ["--json"] : []) + lines.flatMap { ["-c", $0] })
    }

    static func setUp(_ site: URL, _ home: URL) throws {
        try NavigationTests.feed("One", count: 3, prefix: "One").write(
            to: site.appendingPathComponent("one.xml"), atomically: true, encoding: .utf8)
        try NavigationTests.feed("Two", count: 2, prefix: "Two").write(
            to: site.appendingPathComponent("two.xml"), atomically: true, encoding: .utf8)
        let added = try run(["feed add \(site.path)/one.xml", "feed add \(site.path)/two.xml"], home: home)
        #expect(added.status == 0, "\(added.err)")
    }

    @Test("a saved view lists with its counts beside the built-in ones, and items, next and mark use it")
    func savedView() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home)
            let saved = try Self.run(
                ["view add Ones --feed 1 --unread", "item mark 2 star", "view list"], home: home)
            #expect(saved.out.hasPrefix(#"saved view "Ones": --feed 1 --unread"#), "\(saved.out)")
            let rows = saved.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(rows.contains(["Unread", "5/5", "--unread"]), "\(rows)")
            #expect(rows.contains(["Starred", "1/1", "--starred"]), "\(rows)")
            #expect(rows.contains(["Ones", "3/3", "--feed", "1", "--unread"]), "\(rows)")
            // next walks the view shown; an option beside --view wins over the view's own.
            let read = try Self.run(
                ["items --view ones", "next --no-pager", "next --no-pager", "items --view Ones --feed 2"], home: home)
            #expect(NavigationTests.titles(read.out, prefix: "One") == ["One 0", "One 1"], "\(read.out)")
            #expect(read.out.contains("Two 0") && read.out.contains("Two 1"))
            let marked = try Self.run(["item mark --all read --view Ones", "view list"], home: home)
            #expect(marked.out.hasPrefix("marked 1 item of view Ones read"), "\(marked.out)")
            #expect(marked.out.split(separator: "\n").contains { $0.hasPrefix("Ones ") && $0.contains(" 0/0 ") })
            // Replaced, then removed; the built-in ones stay.
            let changed = try Self.run(
                [
                    "view add ONES --feed 2", "view list", "view remove ones", "view remove Today",
                    "view add starred --unread",
                ],
                home: home)
            #expect(changed.out.contains(#"replaced view "ONES": --feed 2"#), "\(changed.out)")
            #expect(changed.out.contains(#"removed view "ones""#))
            #expect(
                changed.err.split(separator: "\n") == [
                    "error: Today is a built-in view and stays",
                    "error: Starred is a built-in view; choose another name",
                ])
            let json = try Self.run(["view list"], home: home, json: true)
            #expect(json.out.contains(#""built_in":true"#) && !json.out.contains("ONES"))
        }
    }

    @Test("Today holds what is dated today, and stays today: its date is kept as written")
    func todayIsRelative() async throws {
        try await withSiteAndHome { site, home in
            let today = ISO8601DateFormatter().string(from: Date())
            let rss = """
                <?xml version="1.0"?><rss version="2.0"><channel><title>Now</title>
                <item><title>Fresh</title><guid>f</guid><pubDate>\(RFC822Now.string())</pubDate></item>
                <item><title>Old</title><guid>o</guid><pubDate>Mon, 02 Nov 2026 08:00:00 GMT</pubDate></item>
                </channel></rss>
                """
            try rss.write(to: site.appendingPathComponent("now.xml"), atomically: true, encoding: .utf8)
            let result = try Self.run(["feed add \(site.path)/now.xml", "view show Today"], home: home)
            #expect(result.out.contains("Fresh") && !result.out.contains("Old"), "\(result.out) \(today)")
        }
    }

    @Test("bad views are refused in words and nothing is saved")
    func refusals() async throws {
        try await withSiteAndHome { site, home in
            try Self.setUp(site, home)
            let result = try Self.run(
                [
                    "view add X", "view add X --feed 9", "view add X --since someday", "view add '' --unread",
                    "items --view Nope", "view remove Nope", "view list",
                ], home: home)
            let errors = result.err.split(separator: "\n").map(String.init)
            #expect(errors.count == 6, "\(errors)")
            #expect(errors[0] == "error: a view needs a filter, like: view add X --unread --tag news")
            #expect(errors[1] == "error: no feed #9")
            #expect(errors[2].hasPrefix("error: --since: "))
            #expect(errors[3] == "error: a view's name is 1 to 100 characters, without control characters")
            #expect(errors[4] == #"error: no view "Nope"; "view list" lists them"#)
            #expect(errors[5] == #"error: no saved view "Nope""#)
            #expect(
                result.out.split(separator: "\n").count == 4, "only the header and the built-in views: \(result.out)")
        }
    }
}

/// Now as an RFC 822 date, as a feed writes it.
enum RFC822Now {
    static func string() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date())
    }
}
