import Foundation
import Testing

/// Reading articles as a user does: the rendered text with its links and enclosures, the pager
/// for long articles in a terminal, and `item open` with the user's browser.
@Suite("tidings reading articles", .serialized)
struct ReadingTests {
    static func feed(paragraphs: Int, link: String = "https://r.test/a") -> String {
        let body = (1...paragraphs).map { "<p>Paragraph \($0) of the article.</p>" }.joined()
        return """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Reading</title><link>https://r.test/</link>
            <item><title>Long read</title><link>\(link)</link><guid>r1</guid>
            <enclosure url="https://r.test/ep.mp3" type="audio/mpeg" length="12345678"/>
            <description><![CDATA[<p>See <a href="https://example.com/more">more</a>.</p>\(body)]]></description></item>
            </channel></rss>
            """
    }

    func add(_ feed: String, site: URL, home: URL) throws {
        try feed.write(to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
        let added = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/f.xml"])
        #expect(added.status == 0, "\(added.err)")
    }

    @Test("item show lists the link targets and the enclosures after the text; --json carries them")
    func linksAndEnclosures() async throws {
        try await withSiteAndHome { site, home in
            try add(Self.feed(paragraphs: 2), site: site, home: home)
            let shown = try TidingsBinary.run(["--home", home.path, "-c", "item show 1"])
            #expect(shown.out.contains("See more[1].\n\nParagraph 1 of the article."), "\(shown.out)")
            #expect(shown.out.contains("Links:\n[1] https://example.com/more"))
            #expect(shown.out.contains("Enclosures:\n[audio/mpeg, 12.3 MB] https://r.test/ep.mp3"))
            let json = try TidingsBinary.run(["--home", home.path, "--json", "-c", "item show 1"])
            let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
            #expect(object?["links"] as? [String] == ["https://example.com/more"])
            let enclosure = (object?["enclosures"] as? [[String: Any]])?.first
            #expect(enclosure?["type"] as? String == "audio/mpeg" && enclosure?["length"] as? Int == 12_345_678)
        }
    }

    @Test("in a terminal a long article goes through $PAGER; --no-pager and a short one print directly")
    func pager() async throws {
        try await withSiteAndHome { site, home in
            try add(Self.feed(paragraphs: 60), site: site, home: home)
            let paged = site.appendingPathComponent("paged.txt")
            let terminal = try TerminalSession(
                arguments: ["--home", home.path], environment: ["PAGER": "cat > '\(paged.path)'"])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("item show 1\r")
            #expect(terminal.waitFor("tidings> "))
            #expect(!terminal.lastOutput.contains("Paragraph 60"), "the article was printed, not paged")
            let text = (try? String(contentsOf: paged, encoding: .utf8)) ?? ""
            #expect(text.contains("Paragraph 60 of the article.") && text.contains("Links:"), "\(text)")
            try FileManager.default.removeItem(at: paged)
            terminal.type("item show 1 --no-pager\r")
            #expect(terminal.waitFor("Paragraph 60 of the article."))
            #expect(terminal.waitFor("tidings> "))
            #expect(!FileManager.default.fileExists(atPath: paged.path))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test("item open starts $BROWSER with the article's link and marks it read; a non-web link is refused")
    func open() async throws {
        try await withSiteAndHome { site, home in
            try add(Self.feed(paragraphs: 1), site: site, home: home)
            let opened = site.appendingPathComponent("opened.txt")
            let browser = ["BROWSER": "echo %s > '\(opened.path)'"]
            let result = try TidingsBinary.run(["--home", home.path, "-c", "item open 1"], environment: browser)
            #expect(result.status == 0, "\(result.err)")
            #expect((try? String(contentsOf: opened, encoding: .utf8)) == "https://r.test/a\n")
            let unread = try TidingsBinary.run(["--home", home.path, "-c", "items --unread"])
            #expect(!unread.out.contains("Long read"))

            try Self.feed(paragraphs: 1, link: "file:///etc/passwd").replacingOccurrences(of: "r1", with: "r2").write(
                to: site.appendingPathComponent("g.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/g.xml"]).status == 0)
            try FileManager.default.removeItem(at: opened)
            let refused = try TidingsBinary.run(["--home", home.path, "-c", "item open 2"], environment: browser)
            #expect(refused.status == 1 && refused.err.contains("not a web address"), "\(refused.err)")
            #expect(!FileManager.default.fileExists(atPath: opened.path))
        }
    }
}
