import Foundation
import Testing

@testable import REPL

/// `tidings parse`, run as a user runs it.
@Suite("tidings parse", .serialized)
struct ParseCommandTests {
    /// A fixture of the Feed tests.
    func fixture(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("FeedParserTests/Resources/\(path)").path
    }

    @Test("--json prints SPEC's object on one line: every key, nulls for absent values, RFC 3339 dates")
    func json() throws {
        let result = try TidingsBinary.run(["parse", "--json", fixture("rss/rss2-basic.xml")])
        #expect(result.status == 0)
        #expect(result.out.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "format", "title", "link", "feed_url", "description", "language", "updated", "icon", "image", "authors",
                "items", "warnings",
            ])
        #expect(object["warnings"] as? [String] == [])
        #expect(object["format"] as? String == "rss2.0")
        #expect(object["updated"] as? String == "2021-03-13T10:00:00Z")
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(
            Set(items[0].keys) == [
                "id", "unique_id", "title", "link", "published", "updated", "authors", "summary", "content_html",
                "content_text", "categories", "enclosures", "image", "banner_image", "duration", "episode", "season",
            ])
        #expect(items[0]["image"] is NSNull)
        #expect(items[0]["duration"] is NSNull)
        #expect(items[0]["updated"] is NSNull)
        #expect(items[0]["content_text"] as? String == "Full content")
        #expect((items[0]["enclosures"] as? [[String: Any]])?.first?["length"] as? Int == 1234)
        #expect((items[1]["authors"] as? [[String: Any]])?.first?["email"] is NSNull)
    }

    @Test("--json gives a podcast's image, and each episode's image, duration, episode and season")
    func jsonPodcastFields() throws {
        let result = try TidingsBinary.run(["parse", "--json", fixture("rss/podcast-itunes.xml")])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["image"] as? String == object["icon"] as? String)
        #expect((object["image"] as? String)?.hasSuffix("/art/cover.jpg") == true)
        #expect(object["description"] as? String == "A show about shows.")
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items[0]["image"] as? String == "https://itunes-only.example/art/ep1.jpg")
        #expect(items[0]["duration"] as? Int == 3723)
        #expect(items[0]["episode"] as? Int == 1)
        #expect(items[0]["season"] as? Int == 2)
        #expect(items[0]["summary"] as? String == "Episode one, summarised.")
        #expect(items[3]["duration"] is NSNull)
        #expect(items[3]["episode"] is NSNull)
    }

    @Test("a local file over 256 MB, or an endless device, is refused with the cap named, not read into memory")
    func localFileCap() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-\(UUID().uuidString).xml")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("<rss>".utf8)))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 300_000_000)  // sparse: no disk is used
        try handle.close()
        for path in [url.path, "/dev/zero"] {
            let result = try TidingsBinary.run(["parse", "--summary", path])
            #expect(result.status == 1)
            #expect(result.err == "tidings: cannot read \(path): it is larger than 256 MB\n")
        }
    }

    @Test("an http URL is fetched and parsed (the document URL resolves relative links); a 404 exits 1")
    func httpURL() async throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-parse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: site) }
        let feed =
            #"<rss version="2.0"><channel><title>Served</title><item><title>One</title><link>/posts/1</link></item></channel></rss>"#
        try feed.write(to: site.appendingPathComponent("feed.xml"), atomically: true, encoding: .utf8)
        try await withFeedServer(serving: site) { base in
            let summary = try TidingsBinary.run(["parse", "--summary", base.absoluteString + "/feed.xml"])
            #expect(summary.status == 0 && summary.out == "rss2.0 \"Served\": 1 item, 0 warnings\n")
            let json = try TidingsBinary.run(["parse", "--json", base.absoluteString + "/feed.xml"])
            #expect(json.out.contains("\"link\":\"\(base.absoluteString)/posts/1\""))
            let missing = try TidingsBinary.run(["parse", base.absoluteString + "/nothing.xml"])
            #expect(missing.status == 1 && missing.err.contains("404"))
        }
    }

    @Test("--summary prints one line")
    func summary() throws {
        let result = try TidingsBinary.run(["parse", "--summary", fixture("atom/atom1-basic.xml")])
        #expect(result.status == 0)
        #expect(result.out == "atom1.0 \"Atom Example\": 2 items, 0 warnings\n")
    }

    @Test("the default human form lists the items")
    func text() throws {
        let result = try TidingsBinary.run(["parse", fixture("jsonfeed/v1.1-basic.json")])
        #expect(result.status == 0)
        #expect(result.out.contains("jsonfeed1.1 \"My Example Feed\": 2 items, 0 warnings"))
        #expect(result.out.contains("2021-03-12  Hello  https://example.org/initial-post"))
    }

    @Test("not a feed, or a missing file, exits 1 with a one-line reason")
    func failures() throws {
        let html = try TidingsBinary.run(["parse", fixture("other/html-page.html")])
        #expect(html.status == 1)
        #expect(html.err == "tidings: not a feed: an HTML page\n")
        #expect(html.out.isEmpty)
        let missing = try TidingsBinary.run(["parse", "/nonexistent/feed.xml"])
        #expect(missing.status == 1)
        #expect(missing.err.split(separator: "\n").count == 1)
    }

    @Test("a cut-off feed still prints, with its warning")
    func truncated() throws {
        let result = try TidingsBinary.run(["parse", "--summary", fixture("rss/rss2-truncated.xml")])
        #expect(result.status == 0)
        #expect(result.out == "rss2.0 \"Cut off\": 2 items, 1 warning\n")
    }

    @Test("--json carries the recoverable problems as \"warnings\"; the feed is still printed")
    func jsonWarnings() throws {
        let result = try TidingsBinary.run(["parse", "--json", fixture("rss/rss2-truncated.xml")])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("cut off") == true)
        #expect((object["items"] as? [Any])?.count == 2)
    }

    @Test("--json with --summary is a usage error, status 2")
    func usage() throws {
        #expect(try TidingsBinary.run(["parse", "--json", "--summary", fixture("rss/rss2-basic.xml")]).status == 2)
    }

    @Test("the common forms are read without the argument parser; every other form still goes through it")
    func commonForms() {
        #expect(ParseCommand.CommonForm(["a.xml"]) == ParseCommand.CommonForm(source: "a.xml"))
        #expect(
            ParseCommand.CommonForm(["--summary", "a.xml"]) == ParseCommand.CommonForm(source: "a.xml", summary: true))
        #expect(ParseCommand.CommonForm(["a.xml", "--json"]) == ParseCommand.CommonForm(source: "a.xml", json: true))
        for parserOnly in [
            [], ["--json"], ["a.xml", "b.xml"], ["--json", "--json", "a.xml"], ["--json", "--summary", "a.xml"],
            ["--help"], ["-h"], ["help"], ["--", "a.xml"], ["a.xml", "--bogus"], [""],
        ] {
            #expect(ParseCommand.CommonForm(parserOnly) == nil, "\(parserOnly)")
        }
    }

    @Test("both ways of reading the command line print the same, and a form only the parser reads still works")
    func commonFormAndParserAgree() throws {
        let file = fixture("rss/rss2-basic.xml")
        let direct = try TidingsBinary.run(["parse", file, "--summary"])
        #expect(direct.status == 0)
        #expect(try TidingsBinary.run(["parse", "--summary", "--", file]).out == direct.out)
        let help = try TidingsBinary.run(["parse", "--help"])
        #expect(help.status == 0 && help.out.contains("USAGE: tidings parse"))
        let missing = try TidingsBinary.run(["parse"])
        #expect(missing.status == 2 && missing.err.contains("Missing expected argument"))
    }

    @Test("feed text is stripped of terminal escape sequences before printing")
    func sanitized() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-parse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("evil.json")
        let title = "Evil\u{1B}]0;owned\u{07} title\u{1B}[2J!"
        let feed: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1", "title": title, "items": [["id": "1", "title": title]],
        ]
        try JSONSerialization.data(withJSONObject: feed).write(to: file)
        let result = try TidingsBinary.run(["parse", file.path])
        #expect(!result.out.contains("\u{1B}"))
        #expect(result.out.contains("Evil title!"))
    }
}
