import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A podcast for the download tests: a feed file whose episodes' enclosures the download server
/// (Tests/Support/download_server.py) serves, subscribed in a fresh home, and a fresh download
/// directory (`$XDG_DOWNLOAD_DIR` for every run), all removed afterwards.
struct PodcastSite {
    /// An episode of the feed: its title and the path of its enclosure on the server (`files/x.mp3`,
    /// `slow/x.mp3`, or an absolute URL), with the length the feed declares.
    struct Episode {
        var title: String
        var path: String
        var length: Int? = nil
    }

    let base: URL
    /// The directory the server serves.
    let site: URL
    let home: URL
    let downloads: URL
    /// Each episode's item id, by title.
    let ids: [String: Int]

    /// `episode.mp3` and `payload.bin` on the server: 400 KB in a pattern a shifted or repeated
    /// part would break.
    static let audio = Data((0..<400_000).map { UInt8(truncatingIfNeeded: ($0 * 7 + $0 / 253) % 251) })

    /// The environment every run gets: downloads go to `downloads`.
    var environment: [String: String] { ["XDG_DOWNLOAD_DIR": downloads.path] }

    /// Runs the binary on the home with `commands` (each a `-c`).
    func tidings(_ commands: [String], json: Bool = false, environment extra: [String: String] = [:]) throws
        -> TidingsBinary.Result
    {
        try TidingsBinary.run(
            ["--home", home.path] + (json ? ["--json"] : []) + commands.flatMap { ["-c", $0] },
            environment: environment.merging(extra) { _, new in new })
    }

    /// The id of the episode titled `title`.
    func id(_ title: String) throws -> Int { try #require(ids[title], "no episode \(title)") }

    /// The requests the server has seen for paths containing `fragment`, in order.
    func requests(_ fragment: String) throws -> [SeenDownloadRequest] {
        try SeenDownloadRequest.all(in: site).filter { $0.path.contains(fragment) }
    }

    /// The size of the file at `url` (`nil` when there is none).
    static func size(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
    }

    /// Waits (bounded, polling without awaiting, as the interrupt tests do) until the file at `url`
    /// holds at least `bytes`.
    static func waitForFile(_ url: URL, holding bytes: Int) {
        let deadline = ContinuousClock.now + .seconds(60)
        while (size(url) ?? 0) < bytes && ContinuousClock.now < deadline { usleep(5_000) }
        #expect((size(url) ?? 0) >= bytes, "\(url.lastPathComponent) never held \(bytes) bytes")
    }

    /// Serves a feed of `episodes`, subscribes to it in a fresh home and runs `body`.
    static func run(_ episodes: [Episode], _ body: (PodcastSite) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-podcast-\(UUID())")
        let site = root.appendingPathComponent("site")
        let downloads = root.appendingPathComponent("downloads")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try audio.write(to: site.appendingPathComponent("episode.mp3"))
        try audio.write(to: site.appendingPathComponent("payload.bin"))
        try await withDownloadServer(serving: site) { base in
            let items = episodes.enumerated().map { index, episode in
                let url = episode.path.contains("://") ? episode.path : "\(base.absoluteString)/\(episode.path)"
                let length = episode.length.map { " length=\"\($0)\"" } ?? ""
                return "<item><title>\(episode.title)</title><guid>e\(index)</guid>"
                    + "<enclosure url=\"\(url.replacingOccurrences(of: "&", with: "&amp;"))\"\(length) type=\"audio/mpeg\"/>"
                    + "</item>"
            }.joined()
            let feed = root.appendingPathComponent("podcast.xml")
            try Data(
                ("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Podcast</title>"
                    + "<link>https://podcast.test/</link>\(items)</channel></rss>").utf8
            ).write(to: feed)
            let added = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(feed.path)"])
            #expect(added.status == 0, "\(added.err)")
            let listed = try TidingsBinary.run(["--home", home.path, "--json", "-c", "items"])
            let object = try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any]
            let rows = try #require(object?["items"] as? [[String: Any]])
            var ids: [String: Int] = [:]
            for row in rows {
                if let title = row["title"] as? String, let id = row["id"] as? Int { ids[title] = id }
            }
            try await body(PodcastSite(base: base, site: site, home: home, downloads: downloads, ids: ids))
        }
    }
}
