import Foundation
import Testing

@testable import REPL

/// A podcast's episodes as `item show` gives them, after they went through the database.
@Suite("item show for podcasts and videos", .serialized)
struct PodcastItemTests {
    /// A fixture of the Feed tests.
    func fixture(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("FeedParserTests/Resources/\(path)").path
    }

    @Test(
        "an episode's season, number, length and artwork are stored and shown, in text and in --json; an article without them shows none"
    )
    func episodeFields() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        func tidings(_ commands: [String], json: Bool = false) throws -> TidingsBinary.Result {
            try TidingsBinary.run(
                ["--home", home.path] + (json ? ["--json"] : []) + commands.flatMap { ["-c", $0] })
        }
        let added = try tidings(["feed add \(fixture("rss/podcast-itunes.xml"))"])
        #expect(added.status == 0, "\(added.err)")
        let list = try tidings(["items"], json: true)
        let items = try #require(
            (try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])?["items"]
                as? [[String: Any]])
        let ids = Dictionary(
            items.compactMap { item in (item["title"] as? String).flatMap { t in (item["id"] as? Int).map { (t, $0) } }
            },
            uniquingKeysWith: { a, _ in a })

        let hours = try #require(ids["Hours"])
        let shown = try tidings(["item show \(hours) --no-pager"])
        #expect(shown.status == 0, "\(shown.err)")
        #expect(shown.out.contains("\nepisode: season 2, episode 1\n"), "\(shown.out)")
        #expect(shown.out.contains("\nlength: 1:02:03\n"))
        #expect(shown.out.contains("\nimage:  https://itunes-only.example/art/ep1.jpg\n"))
        let json = try tidings(["item show \(hours)"], json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["duration"] as? Int == 3723)
        #expect(object["episode"] as? Int == 1)
        #expect(object["season"] as? Int == 2)
        #expect(object["image"] as? String == "https://itunes-only.example/art/ep1.jpg")

        let minutes = try tidings(["item show \(try #require(ids["Minutes"])) --no-pager"])
        #expect(minutes.out.contains("\nepisode: episode 2\n") && minutes.out.contains("\nlength: 1:02:03\n"))
        let none = try tidings(["item show \(try #require(ids["Unreadable numbers"]))"], json: true)
        let empty = try #require(try JSONSerialization.jsonObject(with: Data(none.out.utf8)) as? [String: Any])
        for key in ["duration", "episode", "season", "image"] { #expect(empty[key] is NSNull, "\(key)") }
        let plain = try tidings(["item show \(try #require(ids["Unreadable numbers"])) --no-pager"])
        #expect(!plain.out.contains("episode:") && !plain.out.contains("length:") && !plain.out.contains("image:"))
    }

    @Test(
        "on a colour terminal an episode's fields show as in plain text, the title bold and nothing else styled"
    )
    func episodeFieldsInATerminal() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let added = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(fixture("rss/podcast-itunes.xml"))"])
        #expect(added.status == 0, "\(added.err)")
        let terminal = try TerminalSession(arguments: ["--home", home.path], columns: 100, unset: ["NO_COLOR"])
        try #require(terminal.waitFor("tidings> "))
        terminal.type("items --search Hours\r")
        try #require(terminal.waitFor("tidings> "))
        let id = try #require(
            terminal.lastOutput.split(separator: "\n").compactMap { line in
                line.contains("Hours") ? line.split(separator: " ").lazy.compactMap { Int($0) }.first : nil
            }.first, "\(terminal.lastOutput)")
        terminal.type("item show \(id) --no-pager\r")
        try #require(terminal.waitFor("tidings> "))
        let shown = terminal.lastOutput
        #expect(shown.contains("\u{1B}[1mHours\u{1B}[0m"), "\(shown)")
        for line in [
            "episode: season 2, episode 1", "length: 1:02:03", "image:  https://itunes-only.example/art/ep1.jpg",
        ] {
            #expect(shown.contains("\n" + line + "\r\n") || shown.contains("\n" + line + "\n"), "\(line): \(shown)")
        }
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
    }
}
