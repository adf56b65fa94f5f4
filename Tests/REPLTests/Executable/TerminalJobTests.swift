import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The programs a session hands the terminal to, run for real in a pseudo-terminal that is the
/// session's controlling terminal, as a person's terminal emulator is: the real `less` and
/// `more` as pagers and the real `w3m` as a browser. Each must get the keyboard (a program in a
/// background process group is stopped at its first read), and the session must get it back.
@Suite("tidings hands the terminal to pagers and browsers", .serialized)
struct TerminalJobTests {
    /// What a person who set nothing has not set, whatever the suite's environment holds.
    static let unset = ["PAGER", "LESS", "BROWSER", "MORE"]

    func addLongArticle(site: URL, home: URL, link: String = "https://r.test/a") throws {
        try ReadingTests.feed(paragraphs: 80, link: link).write(
            to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
        let added = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/f.xml"])
        #expect(added.status == 0, "\(added.err)")
    }

    /// Starts an interactive session on the pseudo-terminal with `environment`.
    func session(home: URL, environment: [String: String] = [:]) throws -> TerminalSession {
        try TerminalSession(
            arguments: ["--home", home.path], columns: 80, environment: environment, controllingTerminal: true,
            unset: Self.unset.filter { environment[$0] == nil })
    }

    /// After the program handed the terminal back, the session reads the keyboard again.
    func expectSessionAlive(_ terminal: TerminalSession) {
        terminal.type("items\r")
        #expect(terminal.waitFor("Long read", seconds: 60), "the session did not answer: \(terminal.transcript)")
        #expect(terminal.waitFor("tidings> ", seconds: 60))
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0, "\(terminal.transcript)")
    }

    @Test("the default pager, the real less, pages a long article, takes keys, and gives the session back")
    func less() async throws {
        try await withSiteAndHome { site, home in
            try addLongArticle(site: site, home: home)
            let terminal = try session(home: home)
            #expect(terminal.waitFor("tidings> "))
            terminal.type("read 1\r")
            try #require(terminal.waitFor("Paragraph 1 of", seconds: 60), "less showed nothing: \(terminal.transcript)")
            #expect(!terminal.pending.contains("Paragraph 60 of"), "more than a screen was shown at once")
            terminal.type(" ")  // the next screen: less reads the keyboard
            try #require(terminal.waitFor("Paragraph 20 of", seconds: 60), "less did not page: \(terminal.transcript)")
            // Ctrl-C reaches less's group (which holds the terminal), not the session: less stays,
            // and so does the shell that started it (a shell that died of it would hand the
            // terminal back while less still runs).
            terminal.type("\u{03}")
            // less drops the keys typed ahead of its interrupt, so `g` (the top) is typed until
            // less shows the top again: it still reads the keyboard after Ctrl-C.
            var atTop = false
            for _ in 0..<30 where !atTop {
                terminal.type("g")
                atTop = terminal.waitFor("See more", seconds: 2)
            }
            try #require(atTop, "less stopped reading keys after Ctrl-C: \(terminal.transcript)")
            terminal.type("q")
            #expect(terminal.waitFor("tidings> ", seconds: 60), "less did not quit: \(terminal.transcript)")
            #expect(!terminal.lastOutput.contains("interrupted"))
            expectSessionAlive(terminal)
        }
    }

    @Test("PAGER=more pages through the real more and gives the session back")
    func more() async throws {
        try await withSiteAndHome { site, home in
            try addLongArticle(site: site, home: home)
            let terminal = try session(home: home, environment: ["PAGER": "more"])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("read 1\r")
            try #require(terminal.waitFor("--More--", seconds: 60), "more showed no prompt: \(terminal.transcript)")
            terminal.type("q")
            #expect(terminal.waitFor("tidings> ", seconds: 60), "more did not quit: \(terminal.transcript)")
            expectSessionAlive(terminal)
        }
    }

    @Test("BROWSER=w3m shows the page in the terminal, takes keys, and gives the session back")
    func w3m() async throws {
        try await withSiteAndHome { site, home in
            try "<html><body><h1>Served page</h1><p>Hello from the page.</p></body></html>".write(
                to: site.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
            try await withFeedServer(serving: site) { base in
                try addLongArticle(
                    site: site, home: home, link: base.appendingPathComponent("page.html").absoluteString)
                let terminal = try session(home: home, environment: ["BROWSER": "w3m"])
                #expect(terminal.waitFor("tidings> "))
                terminal.type("item open 1\r")
                try #require(terminal.waitFor("Hello", seconds: 60), "w3m showed nothing: \(terminal.transcript)")
                try #require(terminal.waitFor("Viewing", seconds: 60), "\(terminal.transcript)")
                terminal.type("Q")  // w3m's quit without confirmation: w3m reads the keyboard
                #expect(terminal.waitFor("tidings> ", seconds: 60), "w3m did not quit: \(terminal.transcript)")
                expectSessionAlive(terminal)
            }
        }
    }
}
