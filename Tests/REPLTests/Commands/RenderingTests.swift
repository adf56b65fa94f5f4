import Chores
import Feed
import Foundation
import Store
import Synchronization
import Testing

@testable import REPL

@Suite("rendering")
struct RenderingTests {
    @Test("tables fit the width: the flexible column is cut with an ellipsis and no row wraps")
    func tablesFitTheWidth() {
        var table = Table(columns: [
            .init(title: "ID", alignRight: true), .init(title: "TITLE", flexible: true), .init(title: "URL"),
        ])
        table.rows = [
            ["1", "A rather long title that will not fit", "https://x.test/"], ["22", "Short", "https://y.test/"],
        ]
        let lines = table.render(Display(isTerminal: true, width: 40, color: false)).split(separator: "\n").map(
            String.init)
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines[1] == " 1  A rather long titl…  https://x.test/")
        #expect(lines[2] == "22  Short                https://y.test/")
        let unlimited = table.render(.plain)
        #expect(unlimited.contains("A rather long title that will not fit"))
    }

    @Test("colour only when asked: bold headers on a colour display, plain text otherwise")
    func colour() {
        let table = Table(columns: [.init(title: "ID")])
        #expect(
            TerminalText.forTerminal(table.render(Display(isTerminal: true, width: 80, color: true)))
                == "\u{1B}[1mID\u{1B}[0m")
        #expect(table.render(Display(isTerminal: true, width: 80, color: false)) == "ID")
        #expect(Display.current(noColor: true, environment: [:]).color == false)
        #expect(Display.current(noColor: false, environment: ["NO_COLOR": "1"]).color == false)
    }

    @Test("a coloured cell is measured, cut and padded as its text, and keeps its colour around what is shown")
    func colouredCell() {
        let display = Display(isTerminal: true, width: 16, color: true)
        var table = Table(columns: [.init(title: "DUE"), .init(title: "NAME", flexible: true, minimumWidth: 4)])
        table.rows = [
            [display.styled("2020-10-01", "31"), display.styled("Clean gutters", "33")], ["", "Water"],
        ]
        let lines = TerminalText.forTerminal(table.render(display)).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1] == "\u{1B}[31m2020-10-01\u{1B}[0m  \u{1B}[33mCle…\u{1B}[0m", "\(lines)")
        #expect(lines[2] == "            Wat…")
    }

    @Test("display width: wide and fullwidth characters and emoji take two columns, marks none")
    func displayWidth() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("天気") == 4 && DisplayWidth.of("Ａ") == 2 && DisplayWidth.of("한국") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("👨\u{200D}👩\u{200D}👧") == 2 && DisplayWidth.of("❤\u{FE0F}") == 2)
        #expect(DisplayWidth.of("🇫🇷") == 2 && DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.fit("天気予報です", width: 5) == "天気…")
        #expect(DisplayWidth.fit("天気予報です", width: 12) == "天気予報です")
        #expect(DisplayWidth.pad("天", to: 4) == "天  ")
    }

    @Test("tables pad and cut by display width, so CJK and emoji rows stay aligned")
    func wideCharactersAlign() {
        var table = Table(columns: [
            .init(title: "ID", alignRight: true), .init(title: "TITLE", flexible: true), .init(title: "URL"),
        ])
        table.rows = [
            ["1", "天気予報と東京の週末", "https://a.test/"], ["2", "😀 emoji", "https://b.test/"],
            ["3", "plain", "https://c.test/"],
        ]
        let lines = table.render(Display(isTerminal: true, width: 40, color: false)).split(separator: "\n").map(
            String.init)
        let urlColumns = lines.dropFirst().map { line in
            DisplayWidth.of(line[..<(line.range(of: "https")?.lowerBound ?? line.endIndex)])
        }
        #expect(Set(urlColumns).count == 1, "\(lines)")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 40 }, "\(lines)")
        #expect(lines[1].contains("…"))
    }

    @Test("a right-aligned flexible cell cut short of its width by a wide character is padded to it")
    func rightAlignedCutCell() {
        var table = Table(columns: [
            .init(title: "N", alignRight: true, flexible: true, minimumWidth: 4), .init(title: "URL"),
        ])
        table.rows = [["天気予報", "https://a.test/"], ["1", "https://b.test/"]]
        let lines = table.render(Display(isTerminal: true, width: 21, color: false)).split(separator: "\n").map(
            String.init)
        // Four columns for the cell: "天" and the ellipsis take three, a space pads the fourth.
        #expect(lines[1] == " 天…  https://a.test/", "\(lines)")
        #expect(lines[2] == "   1  https://b.test/", "\(lines)")
    }

    @Test("a table without columns renders without failing")
    func noColumns() {
        var table = Table(columns: [])
        table.rows = [[], []]
        #expect(!table.render(.plain).contains("x"))
    }

    @Test("with no width to fit (a pipe), a huge cell is still cut, not padded into every row")
    func hugeCellWithoutWidth() {
        var table = Table(columns: [.init(title: "ID"), .init(title: "TITLE", flexible: true), .init(title: "URL")])
        table.rows = [
            ["1", String(repeating: "x", count: 1_000_000), "https://a.test/"], ["2", "short", "https://b.test/"],
        ]
        let lines = table.render(.plain).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count < 200 }, "\(lines.map(\.count))")
    }

    @Test("the output boundary removes bidi controls, invisible format characters and escapes; keeps text")
    func outputBoundary() {
        #expect(TerminalText.forTerminal("a\u{202E}b\u{2066}c\u{2069}\u{200B}d\u{FEFF}\u{AD}e") == "abcde")
        #expect(TerminalText.forTerminal("x\u{1B}[1my\u{1B}]0;title\u{07}z\u{1B}]8;;u\u{1B}\\w\u{9B}31m") == "xyzw31m")
        #expect(TerminalText.forTerminal("line 1\nline\t2\r") == "line 1\nline\t2")
        // Scripts and emoji keep their joiners and variation selectors.
        let text = "天気 👨\u{200D}👩\u{200D}👧 نیم\u{200C}فاصله ❤\u{FE0F}"
        #expect(TerminalText.forTerminal(text) == text)
        // A style asked for becomes SGR; one forged by outside text does not.
        #expect(TerminalText.forTerminal(TerminalText.styled("red", "31")) == "\u{1B}[31mred\u{1B}[0m")
        let open = String(Unicode.Scalar(UInt32(0xFDD0)) ?? "?")
        let close = String(Unicode.Scalar(UInt32(0xFDD1)) ?? "?")
        let forged = "\(open)abc:31\(close)red"
        #expect(TerminalText.forTerminal(forged) == "abc:31red")
        // A lone marker character in typed text does not swallow the rest of the line.
        #expect(TerminalText.forTerminal("bogus\(open) x y") == "bogus x y")
        // One line of text (a cell, a title) shows a style's text, never its marker's secret and
        // code; a forged marker's text stays text there too.
        #expect(TerminalText.sanitized(TerminalText.styled("red", "31")) == "red")
        #expect(TerminalText.sanitized("a " + TerminalText.styled("red", "1;31") + " b") == "a red b")
        #expect(TerminalText.sanitized(forged) == "abc:31red")
        #expect(TerminalText.sanitized("bogus\(open) x y") == "bogus x y")
        // Tags, Hangul fillers, the grapheme joiner, Mongolian and musical format controls.
        let invisible = "a\u{E0041}\u{E007F}b\u{3164}\u{115F}c\u{034F}d\u{180E}\u{180B}e\u{1D173}\u{13430}f\u{0600}g"
        #expect(TerminalText.forTerminal(invisible) == "abcdefg")
        #expect(TerminalText.sanitized("a\u{2028}b\u{202E}c\nd") == "a bc d")
    }

    @Test("text from a feed prints harmlessly: escape sequences and control characters are removed everywhere")
    func hostileFeedText() async throws {
        let app = try await TestApp()
        let hostile = "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J title\u{08}\u{9B}"
        let rss = """
            <rss version="2.0"><channel><title>Bad&#x1B;[31m feed</title><item><title>\(hostile)</title>
            <description>Body &#x1B;[2J text</description><guid>x</guid></item></channel></rss>
            """
        app.server.serve("https://bad.test/f", rss)
        let lines = await app.run([
            "feed add https://bad.test/f", "feed list", "items", "read 1", "task from-item 1", "task list",
        ])
        #expect(lines.status == 0, "\(lines.err)")
        for line in lines.out {
            #expect(
                !line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
                "\(line.debugDescription)")
        }
        #expect(lines.out.contains { $0.contains("Evil") && $0.contains("title") })
    }

    @Test("text wraps at words to the width")
    func wrapping() {
        #expect(TextWrap.wrap("one two three four five six", width: 12) == "one two\nthree four\nfive six")
        #expect(TextWrap.wrap("para one\n\npara two", width: 40) == "para one\n\npara two")
    }
}

@Suite("completion")
struct CompletionTests {
    @Test("command words, sub-commands and ids by position; file paths after feed add, import and export")
    func candidates() throws {
        let completer = Completer(feeds: nil, tasks: nil)
        #expect(completer.candidates(before: [], prefix: "fe") == ["feed"])
        #expect(completer.candidates(before: ["feed"], prefix: "re") == ["refresh", "remove", "rename"])
        #expect(completer.candidates(before: ["help"], prefix: "ta") == ["task"])
        #expect(completer.candidates(before: ["feed", "add"], prefix: "/tm") == nil)
        #expect(completer.candidates(before: ["task", "done", "1"], prefix: "") == [])
    }

    @Test("a chore's --list completes from the lists there are, --priority from its words")
    func choreValues() async throws {
        let tasks = TaskService(store: try LocalStore.inMemory())
        _ = try await tasks.add(name: "Milk", details: TaskDetailChanges(list: .set("Groceries")))
        _ = try await tasks.add(name: "Mow", details: TaskDetailChanges(list: .set("garden")))
        let completer = Completer(feeds: nil, tasks: tasks)
        await completer.reload()
        #expect(completer.candidates(before: ["task", "add", "Eggs", "--list"], prefix: "gr") == ["Groceries"])
        #expect(completer.candidates(before: ["task", "list", "--list"], prefix: "") == ["garden", "Groceries"])
        #expect(
            completer.candidates(before: ["task", "edit", "1", "--priority"], prefix: "") == [
                "high", "medium", "low", "none",
            ])
        #expect(completer.candidates(before: ["task", "add", "x", "--priority"], prefix: "m") == ["medium"])
    }

    @Test("paths: directories end with a slash, hidden files only when asked for, ~ kept as typed")
    func paths() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("feeds"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory.appendingPathComponent("feed.opml"))
        try Data().write(to: directory.appendingPathComponent(".hidden"))
        let base = directory.path + "/"
        #expect(Completer.paths(matching: base + "fe") == [base + "feed.opml", base + "feeds/"])
        #expect(Completer.paths(matching: base) == [base + "feed.opml", base + "feeds/"])
        #expect(Completer.paths(matching: base + ".") == [base + ".hidden"])
        #expect(Completer.paths(matching: base + "nothing").isEmpty)
        #expect(Completer.paths(matching: "~/").allSatisfy { $0.hasPrefix("~/") })
    }
}

@Suite("rendering narrow terminals")
struct NarrowTableTests {
    @Test("several flexible columns shrink, the last first; a line still too wide is cut, never wrapped")
    func narrow() {
        var table = Table(columns: [
            .init(title: "ID"), .init(title: "TITLE", flexible: true, minimumWidth: 5),
            .init(title: "URL", flexible: true, minimumWidth: 10),
        ])
        table.rows = [["1", "A title of some length", "https://example.com/a/very/long/path/to/the/feed.xml"]]
        let lines = table.render(Display(isTerminal: true, width: 50, color: false)).split(separator: "\n").map(
            String.init)
        #expect(lines.allSatisfy { $0.count <= 50 })
        #expect(lines[1].hasPrefix("1   A title of some length  https://"))
        #expect(lines[1].hasSuffix("…"))
        let tiny = table.render(Display(isTerminal: true, width: 12, color: false)).split(separator: "\n")
        #expect(tiny.allSatisfy { $0.count <= 12 })
    }
}

@Suite("completion of ids")
struct IDCompletionTests {
    /// The graph a second `tidings` process would build over `app`'s home: its own connection
    /// to the same database file.
    func otherProcess(_ app: TestApp) async throws -> AppEnvironment {
        try await AppEnvironment.make(
            home: app.environment.home, configURL: nil, environment: [:], logger: app.environment.logger,
            transport: app.server.transport, now: app.environment.now, calendar: app.environment.calendar)
    }

    @Test("reload loads the ids, and loads them again only once the data version says something changed")
    func idsFollowDataVersion() async throws {
        let app = try await TestApp()
        let version = DataVersion()
        let completer = Completer(
            feeds: app.environment.feeds, tasks: app.environment.tasks, dataVersion: { version.value })
        await completer.reload()
        #expect(completer.candidates(before: ["task", "done"], prefix: "") == [])
        let other = try await otherProcess(app)
        _ = try await other.tasks.add(name: "Dust")
        _ = try await other.tasks.add(name: "Mop")
        // Nothing has told this completer of the other connection's commits: it keeps its ids.
        await completer.reload()
        #expect(completer.candidates(before: ["task", "done"], prefix: "") == [])
        version.bump()
        await completer.reload()
        #expect(completer.candidates(before: ["task", "done"], prefix: "") == ["1", "2"])
    }

    @Test("the composition root's completer sees another process's commits at the next reload")
    func idsFollowOtherProcess() async throws {
        let app = try await TestApp()
        let completer = app.environment.completer()
        await completer.reload()
        #expect(completer.candidates(before: ["task", "done"], prefix: "") == [])
        let other = try await otherProcess(app)
        _ = try await other.tasks.add(name: "Dust")
        _ = try await other.tasks.add(name: "Mop")
        await completer.reload()
        #expect(completer.candidates(before: ["task", "done"], prefix: "") == ["1", "2"])
    }
}

@Suite("completion of ids after this process's own commands")
struct OwnCommitCompletionTests {
    @Test("ids added by this process are offered at the very next reload, without waiting for change sets")
    func ownCommitsAtTheNextReload() async throws {
        let app = try await TestApp()
        let completer = app.environment.completer()
        await completer.reload()
        #expect(completer.candidates(before: ["task", "done"], prefix: "") == [])
        // Many times over: a race with the delivery of change sets would show in some of them.
        for round in 1...50 {
            _ = try await app.environment.tasks.add(name: "Chore \(round)")
            await completer.reload()
            let offered = completer.candidates(before: ["task", "done"], prefix: "") ?? []
            #expect(offered.count == round, "round \(round): \(offered)")
        }
    }
}

/// A data version a test moves by hand.
private final class DataVersion: Sendable {
    private let number = Mutex(0)
    var value: Int { number.withLock { $0 } }
    func bump() { number.withLock { $0 += 1 } }
}
