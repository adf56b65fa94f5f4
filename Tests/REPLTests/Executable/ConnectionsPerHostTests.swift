import Foundation
import Testing

/// The config's `maxConnectionsPerHost` reaches the network transport the binary builds: a
/// refresh of feeds on one host runs at most that many requests to it at once (default 2),
/// whatever `maxConcurrentRefreshes` allows.
@Suite("tidings connections per host", .serialized)
struct ConnectionsPerHostTests {
    @Test(
        "a refresh of 6 feeds on one host holds at most maxConnectionsPerHost requests at once",
        arguments: [(nil, 2), (1, 1), (4, 4)] as [(Int?, Int)])
    func refreshHonoursTheBound(configured: Int?, bound: Int) async throws {
        try await withSiteAndHome { site, home in
            let feeds = site.appendingPathComponent("hold")
            try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
            for index in 1...6 {
                try """
                <?xml version="1.0"?><rss version="2.0"><channel><title>Feed \(index)</title>
                <item><title>Item \(index)</title><link>https://example.test/\(index)</link></item></channel></rss>
                """.write(to: feeds.appendingPathComponent("\(index).xml"), atomically: true, encoding: .utf8)
            }
            let config = configured.map { #"{"minVersion":"1.0.0","maxConnectionsPerHost":\#($0)}"# }
            try (config ?? #"{"minVersion":"1.0.0"}"#).write(
                to: site.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
            try await withFeedServer(serving: site) { base in
                let outlines = (1...6).map {
                    #"<outline type="rss" text="Feed \#($0)" xmlUrl="\#(base.absoluteString)/hold/\#($0).xml"/>"#
                }
                let opml = home.appendingPathComponent("feeds.opml")
                try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
                try """
                <?xml version="1.0"?><opml version="2.0"><head><title>feeds</title></head><body>
                \(outlines.joined(separator: "\n"))</body></opml>
                """.write(to: opml, atomically: true, encoding: .utf8)
                let prefix = [
                    "--home", home.path, "--config-url", base.appendingPathComponent("config.json").absoluteString,
                ]
                // The first run caches the config; the second builds its transport from it.
                let setup = try TidingsBinary.run(prefix + ["-c", "config refresh", "-c", "feed import \(opml.path)"])
                #expect(setup.status == 0, "\(setup.err)")
                let refreshed = try TidingsBinary.run(prefix + ["--json", "-c", "feed refresh"])
                #expect(refreshed.status == 0, "\(refreshed.err)")
                #expect(refreshed.out.contains(#""refreshed":6"#), "\(refreshed.out)")
                let peak = try String(contentsOf: site.appendingPathComponent(".hold-peak"), encoding: .utf8)
                let held = try #require(Int(peak))
                #expect(held <= bound, "\(held) requests at once with a bound of \(bound)")
                // Not vacuous: the bound, not something else, keeps the refresh at that.
                if bound > 2 { #expect(held > 2, "\(held) requests at once with a bound of \(bound)") }
            }
        }
    }
}
