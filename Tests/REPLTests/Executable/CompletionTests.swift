import Foundation
import Testing

/// Tab completion in a real pseudo-terminal: ids written by another process, and file names
/// with spaces.
@Suite("tidings completion", .serialized)
struct TerminalCompletionTests {
    static func feed(_ title: String, items: [String]) -> String {
        let entries = items.map { "<item><title>\($0)</title><guid>\($0)</guid></item>" }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>\(entries)</channel></rss>"
    }

    @Test("ids written by another process (a cron refresh) are completed at the next prompt")
    func idsFromAnotherProcess() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed("First", items: ["one", "two"]).write(
                to: site.appendingPathComponent("a.xml"), atomically: true, encoding: .utf8)
            try Self.feed("Second", items: ["Third story", "four"]).write(
                to: site.appendingPathComponent("b.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/a.xml"]).status == 0)
            let terminal = try TerminalSession(arguments: ["--home", home.path])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("help\r")  // a prompt that has read the ids once
            #expect(terminal.waitFor("tidings> "))
            let other = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/b.xml"])
            #expect(other.status == 0, "\(other.err)")
            terminal.type("\r")  // the next prompt notices the other process's commit
            #expect(terminal.waitFor("tidings> "))
            // Item 3 exists only in the other process's feed: Tab completes it (adding a space).
            terminal.type("item show 3\t--no-pager\r")
            #expect(terminal.waitFor("Third story"), "\(terminal.transcript)")
            #expect(terminal.waitFor("tidings> "))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test("several matching ids are listed in numeric order with their titles, made safe; only the id is inserted")
    func listsIdsWithTitles() async throws {
        try await withSiteAndHome { site, home in
            var titles = (1...12).map { "Story number \($0)" }
            titles[9] = "Bidi \u{202E}evil\u{9B}31m ten"  // item 10
            try Self.feed("Many", items: titles).write(
                to: site.appendingPathComponent("a.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/a.xml"]).status == 0)
            let terminal = try TerminalSession(arguments: ["--home", home.path], columns: 60)
            #expect(terminal.waitFor("tidings> "))
            terminal.type("item show 1\t\t")
            #expect(terminal.waitFor("Story number 12"), "\(terminal.transcript)")
            let listed = terminal.transcript
            let one = try #require(listed.range(of: " 1  Story number 1 "), "\(listed)")
            let eleven = try #require(listed.range(of: "11  Story number 11"))
            let ten = try #require(listed.range(of: "10  Bidi"))
            #expect(one.lowerBound < ten.lowerBound && ten.lowerBound < eleven.lowerBound, "numeric order: \(listed)")
            #expect(!listed.contains("\u{202E}") && !listed.contains("\u{9B}"))
            // The line still holds only what was typed: "2" completes item 12 and shows it.
            terminal.type("2 --no-pager\r")
            #expect(terminal.waitFor("Story number 12"), "\(terminal.transcript)")
            #expect(terminal.waitFor("tidings> "))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test("options complete from the command's declaration: items --st<Tab> runs items --starred")
    func completesOptions() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed("First", items: ["one", "two"]).write(
                to: site.appendingPathComponent("a.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/a.xml"]).status == 0)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "item mark 2 star"]).status == 0)
            let terminal = try TerminalSession(arguments: ["--home", home.path])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("items --st\t\r")
            // The starred article is listed (its ★): the option was completed, not left as --st,
            // which would be refused.
            #expect(terminal.waitFor("★  "), "\(terminal.transcript)")
            #expect(!terminal.transcript.contains("no option"))
            #expect(terminal.waitFor("tidings> "))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test("a unique completion rings no bell; several matches with nothing to add ring it once, as readline does")
    func bell() async throws {
        try await withSiteAndHome { _, home in
            let terminal = try TerminalSession(arguments: ["--home", home.path])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("task ad\tBins\r")
            #expect(terminal.waitFor("added task #1"), "\(terminal.transcript)")
            #expect(terminal.waitFor("tidings> "))
            #expect(!terminal.transcript.contains("\u{07}"), "\(terminal.transcript.debugDescription)")
            terminal.type("task \t")
            #expect(terminal.waitFor("\u{07}"), "\(terminal.transcript.debugDescription)")
            terminal.type("\u{15}quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test("a file name with a space is completed escaped, so it stays one word")
    func pathWithSpace() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed("Spaced", items: ["one"]).write(
                to: site.appendingPathComponent("sp ace.xml"), atomically: true, encoding: .utf8)
            let terminal = try TerminalSession(arguments: ["--home", home.path])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("feed add \(site.path)/sp\t\r")
            #expect(terminal.waitFor("added feed #1 \"Spaced\""), "\(terminal.transcript)")
            #expect(terminal.waitFor("tidings> "))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test("file names holding escape sequences and controls are never sent to the terminal by completion")
    func hostileFileNames() async throws {
        try await withSiteAndHome { site, home in
            let hostile = [
                "\u{1B}]0;PWNED\u{07}a.xml", "\u{1B}[2Jb.xml", "c\u{07}.xml", "d\u{202E}lmx.xml", "e\u{9B}31m.xml",
            ]
            for name in hostile + ["plain.xml"] {
                FileManager.default.createFile(atPath: site.appendingPathComponent(name).path, contents: Data())
            }
            let terminal = try TerminalSession(arguments: ["--home", home.path])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("feed import \(site.path)/\t\t")
            #expect(terminal.waitFor("plain.xml"), "\(terminal.transcript)")
            terminal.type("\u{15}help\r")  // Ctrl-U drops the line
            #expect(terminal.waitFor("tidings> "))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
            for marker in ["PWNED", "\u{1B}[2Jb", "c\u{07}", "\u{202E}", "\u{9B}"] {  // BEL alone is libedit's own bell
                #expect(!terminal.transcript.contains(marker), "\(marker.unicodeScalars.map(\.value))")
            }
        }
    }

    @Test("with standard input a terminal and standard output a pipe, the prompt and editing use the terminal")
    func outputToAPipe() async throws {
        try await withSiteAndHome { _, home in
            let output = Pipe()
            let terminal = try TerminalSession(arguments: ["--home", home.path], standardOutput: output)
            #expect(terminal.waitFor("tidings> "), "no prompt on the terminal: \(terminal.transcript)")
            terminal.type("hel\t quit\r")  // Tab completes "help"
            #expect(terminal.waitFor("tidings> "))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
            try output.fileHandleForWriting.close()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(printed.hasPrefix("usage: quit"), "\(printed)")
            #expect(!printed.contains("tidings> "))
        }
    }
}
