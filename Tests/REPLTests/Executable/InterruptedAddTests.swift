import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `feed add` killed with SIGKILL at every stage of its work (fetch, parse, store) leaves either
/// nothing or the whole feed: never a subscription with no articles that later refreshes call
/// "not modified".
@Suite("feed add killed midway", .serialized)
struct InterruptedAddTests {
    static let itemCount = 1500

    /// A feed big enough that storing it takes a while.
    static func bigFeed() -> String {
        let text = String(repeating: "A sentence that makes the article long enough to matter. ", count: 20)
        let items = (0..<itemCount).map { index in
            "<item><title>Story \(index)</title><guid>urn:story:\(index)</guid>"
                + "<pubDate>Sun, 22 Nov 2026 09:00:00 GMT</pubDate><description>\(text)</description></item>"
        }.joined(separator: "\n")
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Big</title>\(items)</channel></rss>"
    }

    /// The subscriptions of `home` and their article totals, through `feed list --json`.
    static func feeds(home: URL) throws -> [(id: Int, total: Int)] {
        let result = try TidingsBinary.run(["--home", home.path, "--json", "-c", "feed list"])
        #expect(result.status == 0, "feed list failed: \(result.err)")
        let document = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        let feeds = try #require(document?["feeds"] as? [[String: Any]])
        return feeds.map { (($0["id"] as? Int) ?? 0, ($0["total"] as? Int) ?? -1) }
    }

    @Test("after a kill at any moment the feed is absent or whole, and a refresh or a new add completes it")
    func killedAddsLeaveNothingOrAWholeFeed() async throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: site) }
        try Self.bigFeed().write(to: site.appendingPathComponent("big.xml"), atomically: true, encoding: .utf8)
        try await withFeedServer(serving: site) { base in
            let url = base.appendingPathComponent("big.xml").absoluteString
            // How long a whole add takes here, to spread the kills over it.
            let probeHome = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-\(UUID())")
            defer { try? FileManager.default.removeItem(at: probeHome) }
            let started = Date()
            let probe = try TidingsBinary.run(["--home", probeHome.path, "-c", "feed add \(url)"])
            let whole = Date().timeIntervalSince(started)
            #expect(probe.status == 0, "\(probe.err)")
            var outcomes: [String] = []
            for step in 0..<16 {
                let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-\(UUID())")
                defer { try? FileManager.default.removeItem(at: home) }
                let process = try TidingsBinary.start(["--home", home.path, "-c", "feed add \(url)"])
                let delay = whole * Double(step) / 16
                await TidingsBinary.kill(process, after: delay)
                guard FileManager.default.fileExists(atPath: home.appendingPathComponent("tidings.sqlite").path) else {
                    outcomes.append("no database")
                    continue
                }
                let feeds = try Self.feeds(home: home)
                #expect(feeds.isEmpty || feeds.map(\.total) == [Self.itemCount], "after a kill at \(delay) s: \(feeds)")
                outcomes.append(feeds.isEmpty ? "nothing" : "whole")
                // Either way the user gets the whole feed by doing the obvious thing next.
                let next = try TidingsBinary.run(
                    ["--home", home.path, "-c", feeds.isEmpty ? "feed add \(url)" : "feed refresh 1"])
                #expect(next.status == 0, "\(next.err)")
                #expect(try Self.feeds(home: home).map(\.total) == [Self.itemCount])
            }
            // Some kills landed before the add finished (the test would prove nothing otherwise).
            #expect(outcomes.contains("nothing") || outcomes.contains("no database"), "\(outcomes)")
        }
    }
}
