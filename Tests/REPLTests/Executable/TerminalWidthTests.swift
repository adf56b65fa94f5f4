import Foundation
import Testing

@testable import REPL

/// Tables in a real pseudo-terminal: measured in display columns (CJK and emoji take two), cut
/// with an ellipsis to the window's width, and following the window when it is resized.
@Suite("tidings in a narrow terminal", .serialized)
struct TerminalWidthTests {
    /// The lines a command printed, without escape sequences and carriage returns.
    static func lines(_ screen: String) -> [String] {
        var text = ""
        var scalars = screen.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\u{1B}" {
                if scalars.next() == "[" { while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {} }
            } else if scalar != "\r" {
                text.unicodeScalars.append(scalar)
            }
        }
        return text.split(separator: "\n").map(String.init)
    }

    @Test("feed list fits a 50-column window with CJK and emoji titles aligned, then a 32-column one after a resize")
    func tablesFitAndFollowTheWindow() async throws {
        try await withSiteAndHome { site, home in
            let titles = ["天気予報と東京の週末のイベント情報まとめ", "😀😀 emoji news 👨‍👩‍👧", "Plain English"]
            for (index, title) in titles.enumerated() {
                try """
                <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title>
                <item><title>\(title) story</title><guid>s\(index)</guid></item></channel></rss>
                """.write(to: site.appendingPathComponent("f\(index).xml"), atomically: true, encoding: .utf8)
                let added = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/f\(index).xml"])
                #expect(added.status == 0, "\(added.err)")
            }
            let terminal = try TerminalSession(arguments: ["--home", home.path], columns: 50)
            #expect(terminal.waitFor("tidings> "))
            for columns in [50, 32] {
                if columns != 50 { terminal.resize(columns: UInt16(columns)) }
                terminal.type("feed list\r")
                #expect(terminal.waitFor("ID  TITLE"))
                #expect(terminal.waitFor("tidings> "))
                let rows = Self.lines(terminal.lastOutput).filter { $0.dropFirst().first?.isNumber == true }
                #expect(rows.count == 3, "\(rows)")
                for row in rows {
                    #expect(DisplayWidth.of(row) <= columns, "\(DisplayWidth.of(row)) > \(columns): \(row)")
                }
                let unread = rows.map { DisplayWidth.of($0[..<($0.range(of: "1/1")?.lowerBound ?? $0.endIndex)]) }
                #expect(Set(unread).count == 1, "columns shifted: \(rows)")
            }
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test("the refresh progress line, indexing included, stays within a 30-column window and is cleared")
    func progressLineFits() async throws {
        try await withSiteAndHome { site, home in
            func write(_ index: Int, items: Int) throws {
                let title = "東京の天気予報と週末のイベント情報 \(index) with a long English tail"
                let entries = (0..<items).map { "<item><title>\(title) #\($0)</title><guid>g\($0)</guid></item>" }
                let feed = "<rss version=\"2.0\"><channel><title>\(title)</title>\(entries.joined())</channel></rss>"
                try feed.write(to: site.appendingPathComponent("f\(index).xml"), atomically: true, encoding: .utf8)
            }
            try await withFeedServer(serving: site) { base in
                for index in 0..<3 {
                    try write(index, items: 1)
                    let added = try TidingsBinary.run(
                        ["--home", home.path, "-c", "feed add \(base.absoluteString)/f\(index).xml"])
                    #expect(added.status == 0, "\(added.err)")
                    try write(index, items: 3)
                    // Newer than the copy fetched within this same second: no 304.
                    try FileManager.default.setAttributes(
                        [.modificationDate: Date().addingTimeInterval(60)],
                        ofItemAtPath: site.appendingPathComponent("f\(index).xml").path)
                }
                let terminal = try TerminalSession(arguments: ["--home", home.path], columns: 30)
                #expect(terminal.waitFor("tidings> "))
                terminal.type("feed refresh\r")
                #expect(terminal.waitFor("refreshed 3 feeds"))
                let beforeSummary = terminal.lastOutput
                #expect(terminal.waitFor("tidings> "))
                // Each transient line is drawn after a carriage return and a clear to end of line.
                let drawn = beforeSummary.components(separatedBy: "\r\u{1B}[K").dropFirst().map {
                    $0.prefix { $0 != "\r" && $0 != "\n" }
                }
                #expect(drawn.contains { $0.hasPrefix("refreshing ") }, "\(drawn)")
                #expect(drawn.contains { $0.hasPrefix("indexing 6 new items") }, "\(drawn)")
                for line in drawn { #expect(DisplayWidth.of(String(line)) <= 29, "\(line)") }
                terminal.type("quit\r")
                #expect(terminal.exitStatus() == 0)
            }
        }
    }
}
