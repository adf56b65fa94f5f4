import Foundation
import Testing

/// Every printed string passes one boundary: whatever a feed, a config, an OPML file or the
/// user's own typing holds, no escape sequence, control character, bidirectional control or
/// invisible format character reaches the terminal; `--json` writes them as `\u` escapes.
@Suite("tidings output boundary", .serialized)
struct OutputBoundaryTests {
    /// The scalars a terminal must never be sent raw.
    static func forbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C, 0xFEFF, 0x2060: true
        default: false
        }
    }

    static let hostile =
        "A\u{202E}txt.exe\u{202C} \u{2067}B\u{2069}\u{200B}C\u{1B}[1mD\u{9B}2J\u{1B}]0;x\u{07}E\u{FEFF}"

    @Test("titles, authors, content, OPML text, config keys and values, and echoed paths reach the terminal clean")
    func everythingPrintedIsClean() async throws {
        try await withSiteAndHome { site, home in try await everythingPrintedIsClean(site: site, home: home) }
    }

    private func everythingPrintedIsClean(site: URL, home: URL) async throws {
        let text = Self.hostile
        let word = text.replacingOccurrences(of: " ", with: "")  // one word for the command line
        let xmlText = text.replacingOccurrences(of: "\u{1B}", with: "&#x1B;").replacingOccurrences(
            of: "\u{07}", with: "&#x7;"
        ).replacingOccurrences(of: "\u{9B}", with: "&#x9B;")
        try """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Feed \(xmlText)</title>
        <item><title>Title \(xmlText)</title><author>me@x.test (Author \(xmlText))</author><guid>a</guid>
        <description>Body \(xmlText)</description></item></channel></rss>
        """.write(to: site.appendingPathComponent("evil.xml"), atomically: true, encoding: .utf8)
        try """
        <?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body>
        <outline text="Outline \(xmlText)" xmlUrl="gopher://x.test/\(xmlText)"/></body></opml>
        """.write(to: site.appendingPathComponent("evil.opml"), atomically: true, encoding: .utf8)
        let jsonText = text.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }
            .joined()
        try """
        {"minVersion":"1.0.0","\\u001b[1mkey\(jsonText)":"value \(jsonText)"}
        """.write(to: site.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)

        try await withFeedServer(serving: site) { base in
            let commands = [
                "feed add \(base.absoluteString)/evil.xml", "feed list", "items", "item show 1",
                "feed import \(site.path)/evil.opml", "config refresh", "config show",
                "config get \u{1B}[1mkey\(word)", "feed add /tmp/no\(word)such", "feed discover \(word)",
                "item show 99\(word)", "nonsense\(word)",
            ]
            let configURL = base.appendingPathComponent("config.json").absoluteString
            var arguments = ["--home", home.path, "--keep-going", "--config-url", configURL]
            for command in commands { arguments += ["-c", command] }
            let human = try TidingsBinary.run(arguments)
            for (name, stream) in [("stdout", human.out), ("stderr", human.err)] {
                let bad = stream.unicodeScalars.filter(Self.forbidden)
                #expect(bad.isEmpty, "\(name) carries \(bad.map { String($0.value, radix: 16) }): \(stream)")
            }
            #expect(human.out.contains("Title Atxt.exe B"), "\(human.out)")
            #expect(human.out.contains("Author Atxt.exe B"), "\(human.out)")
            #expect(human.err.contains("/tmp/noAtxt.exe"), "\(human.err)")

            let json = try TidingsBinary.run(["--json"] + arguments)
            let bad = json.out.unicodeScalars.filter(Self.forbidden)
            #expect(bad.isEmpty, "--json carries \(bad.map { String($0.value, radix: 16) })")
            #expect(json.out.contains(#"\u202e"#) && json.out.contains(#"\u001b"#) && json.out.contains(#"\u009b"#))
            for line in json.out.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
                #expect(object is [String: Any])
            }
            // The escapes decode back to the text the feed had.
            let items = try TidingsBinary.run(["--home", home.path, "--json", "-c", "items"])
            let document = try JSONSerialization.jsonObject(with: Data(items.out.utf8)) as? [String: Any]
            let title = (document?["items"] as? [[String: Any]])?.first?["title"] as? String
            #expect(title?.contains("\u{202E}txt.exe") == true)
        }
    }

    @Test("diagnostics (TIDINGS_LOG=debug) pass the same boundary")
    func logLinesAreClean() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-\u{1B}]0;x\u{07}\u{202E}-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try TidingsBinary.run(
            ["--home", home.path, "-c", "feed list"], environment: ["TIDINGS_LOG": "debug"])
        #expect(result.status == 0)
        #expect(result.err.contains("opened database"), "\(result.err)")
        #expect(!result.err.unicodeScalars.contains(where: Self.forbidden), "\(result.err)")
    }

    @Test(
        "a feed's 100,000-character title is cut to 200 characters where a message quotes it (add, already subscribed, refresh, remove); JSON keeps it whole"
    )
    func longTitlesInMessages() async throws {
        try await withSiteAndHome { site, home in
            let title = String(repeating: "Long title ", count: 9_091)
            let file = site.appendingPathComponent("long.xml")
            try """
            <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title>
            <item><title>One</title><guid>1</guid></item></channel></rss>
            """.write(to: file, atomically: true, encoding: .utf8)
            let result = try TidingsBinary.run(
                ["--home", home.path, "--keep-going", "-c", "feed add \(file.path)", "-c", "feed add \(file.path)"])
            let lines = (result.out + result.err).split(separator: "\n")
            #expect(lines.count == 2, "\(lines.map(\.count))")
            for line in lines { #expect(line.count < 300, "\(line.prefix(120))…") }
            #expect(lines.contains { $0.hasPrefix("added feed #1 \"Long title") && $0.contains("…\": 1 item") })
            #expect(lines.contains { $0.hasPrefix("error: already subscribed: feed #1 \"Long title") })
            try """
            <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title>
            <item><title>Two</title><guid>2</guid></item></channel></rss>
            """.write(to: file, atomically: true, encoding: .utf8)
            let refreshed = try TidingsBinary.run(["--home", home.path, "-c", "feed refresh", "-c", "feed remove 1"])
            for line in refreshed.out.split(separator: "\n") { #expect(line.count < 300, "\(line.prefix(120))…") }
            let json = try TidingsBinary.run(["--home", home.path, "--json", "-c", "feed add \(file.path)"])
            #expect(json.out.contains(title.trimmingCharacters(in: .whitespaces)), "JSON keeps the whole title")
        }
    }
}
