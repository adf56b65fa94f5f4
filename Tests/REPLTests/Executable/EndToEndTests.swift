import Foundation
import Testing

/// The built `tidings` binary in script mode against a temporary home and a loopback HTTP
/// server that serves feeds and a config.
@Suite("tidings end to end", .serialized)
struct EndToEndTests {
    private func rssFile(_ title: String, items: [String]) -> String {
        let entries = items.enumerated().map { index, item in
            "<item><title>\(item)</title><link>https://example.test/\(title.lowercased())/\(index)</link>"
                + "<description>About \(item.lowercased()): a long read.</description>"
                + "<pubDate>Sun, \(20 - index) Nov 2026 09:00:00 GMT</pubDate></item>"
        }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>\(entries)</channel></rss>"
    }

    @Test("add, refresh, items, show, mark, search, tasks with undo, config refresh and the version gate")
    func scriptSession() async throws {
        try await withSiteAndHome { site, home in try await scriptSession(site: site, home: home) }
    }

    private func scriptSession(site: URL, home: URL) async throws {
        try rssFile("Garden", items: ["Tomatoes", "Compost", "Pruning roses"]).write(
            to: site.appendingPathComponent("garden.xml"), atomically: true, encoding: .utf8)
        try rssFile("Kitchen", items: ["Sourdough", "Knife care"]).write(
            to: site.appendingPathComponent("kitchen.xml"), atomically: true, encoding: .utf8)
        try #"{"minVersion":"1.0.0","maxConcurrentRefreshes":4}"#.write(
            to: site.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)

        try await withFeedServer(serving: site) { base in
            func tidings(_ commands: [String], json: Bool = false) throws -> TidingsBinary.Result {
                var arguments = [
                    "--home", home.path, "--config-url", base.appendingPathComponent("config.json").absoluteString,
                ]
                if json { arguments.append("--json") }
                for command in commands { arguments += ["-c", command] }
                return try TidingsBinary.run(arguments)
            }
            let added = try tidings([
                "feed add \(base.absoluteString)/garden.xml", "feed add \(base.absoluteString)/kitchen.xml",
            ])
            #expect(added.status == 0, "\(added.err)")
            #expect(
                added.out == "added feed #1 \"Garden\": 3 items (3 new)\nadded feed #2 \"Kitchen\": 2 items (2 new)\n")

            #expect(try tidings(["config refresh"]).out == "config refreshed: changed maxConcurrentRefreshes\n")
            // The provider's activity reaches the debug log.
            let logged = try TidingsBinary.run(
                [
                    "--home", home.path, "--config-url", base.appendingPathComponent("config.json").absoluteString,
                    "-c", "config refresh",
                ], environment: ["TIDINGS_LOG": "debug"])
            #expect(logged.err.contains("config refresh: started"), "\(logged.err)")
            #expect(logged.err.contains("config refresh: finished("), "\(logged.err)")
            let refreshed = try tidings(["feed refresh"], json: true)
            #expect(refreshed.out.contains(#""not_modified":2"#) && refreshed.out.contains(#""refreshed":2"#))

            let items = try tidings(["items --feed 1"], json: true)
            #expect(items.status == 0)
            #expect(items.out.contains(#""title":"Tomatoes""#) && !items.out.contains("Sourdough"))

            let shown = try tidings(["item show 1"])
            #expect(shown.out.hasPrefix("Tomatoes\nfeed:   Garden\n"))
            #expect(shown.out.contains("About tomatoes: a long read."))
            #expect(try tidings(["items --unread"], json: true).out.contains(#""total":4"#))

            #expect(try tidings(["item mark 2 star", "items --starred"]).out.contains("Compost"))
            let search = try tidings(["items --search sourdough"], json: true)
            #expect(search.out.contains(#""title":"Sourdough""#) && search.out.contains(#""total":1"#))

            let tasks = try tidings(
                ["task add \"Water the tomatoes\" --every 2 days", "task done 1", "task undo", "task list"], json: true)
            #expect(tasks.status == 0, "\(tasks.err)")
            let lines = tasks.out.split(separator: "\n")
            #expect(lines.count == 4)
            #expect(lines.last?.contains(#""name":"Water the tomatoes""#) == true)
            #expect(lines.last?.contains(#""count":2"#) == true && lines.last?.contains(#""unit":"day""#) == true)

            let typo = try tidings(["fed list"])
            #expect(typo.status == 1 && typo.err.contains(#"did you mean "feed"?"#))

            try #"{"minVersion":"9.0.0","maxConcurrentRefreshes":4}"#.write(
                to: site.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 120)],
                ofItemAtPath: site.appendingPathComponent("config.json").path)
            let gated = try tidings(["config refresh", "feed list"])
            #expect(gated.status == 3)
            #expect(gated.out == "config refreshed: changed minVersion\n")
            #expect(gated.err.contains("Update required"))
            let later = try tidings(["task list"])
            #expect(later.status == 3 && later.err.contains("update required"))
            #expect(try tidings(["config get minVersion"]).out == "\"9.0.0\"  (cached)\n")

            // A failed refresh keeps the values, and the next run's `config show` says it failed.
            try FileManager.default.removeItem(at: site.appendingPathComponent("config.json"))
            let failed = try tidings(["config refresh"])
            #expect(failed.status == 1 && failed.err.contains("HTTP 404"))
            let status = try JSONSerialization.jsonObject(with: Data(try tidings(["config show"], json: true).out.utf8))
            let last = (status as? [String: Any])?["last_refresh"] as? [String: Any]
            #expect((last?["result"] as? String)?.contains("HTTP 404") == true, "\(String(describing: last))")
            #expect(try tidings(["config get minVersion"]).out == "\"9.0.0\"  (cached)\n")
        }
    }

    @Test("feed add of a page linking several feeds subscribes to the first and names the others as feed add lines")
    func pageWithSeveralFeeds() async throws {
        try await withSiteAndHome { site, home in
            try rssFile("Main", items: ["One"]).write(
                to: site.appendingPathComponent("main.xml"), atomically: true, encoding: .utf8)
            try rssFile("Comments", items: ["Two"]).write(
                to: site.appendingPathComponent("comments.xml"), atomically: true, encoding: .utf8)
            try """
            <html><head><link rel="alternate" type="application/rss+xml" href="main.xml">
            <link rel="alternate" type="application/rss+xml" title="Comments" href="comments.xml"></head></html>
            """.write(to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            try await withFeedServer(serving: site) { base in
                let page = base.appendingPathComponent("index.html").absoluteString
                let result = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(page)"])
                #expect(result.status == 0, "\(result.err)")
                #expect(
                    result.out == """
                        added feed #1 "Main": 1 item (1 new)
                        the page also links to:
                          feed add \(base.absoluteString)/comments.xml

                        """)
            }
        }
    }
}
