import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `item download` in a real pseudo-terminal: the progress bar, and Ctrl-C during a transfer.
@Suite("item download in a terminal", .serialized)
struct DownloadTerminalTests {
    /// What the progress line's redrawing starts with: carriage return, clear to end of line.
    static let redraw = "\r\u{1B}[K"

    @Test("a progress bar is redrawn in place on a terminal and cleared before the result; none in a pipe")
    func progressBar() async throws {
        try await PodcastSite.run([
            .init(title: "Slow", path: "slow/episode.mp3"), .init(title: "Quiet", path: "slow/payload.bin"),
        ]) { podcast in
            let terminal = try TerminalSession(
                arguments: ["--home", podcast.home.path], columns: 100, environment: podcast.environment)
            try #require(terminal.waitFor("tidings> "))
            terminal.type("item download \(try podcast.id("Slow"))\r")
            try #require(terminal.waitFor("saved item #"), "\(terminal.transcript.debugDescription)")
            let drawn = terminal.lastOutput
            let lines = drawn.components(separatedBy: Self.redraw).filter { $0.contains("%") }
            #expect(lines.count >= 2, "the bar was not redrawn: \(drawn.debugDescription)")
            #expect(lines.allSatisfy { $0.hasPrefix("episode.mp3  ") && $0.contains(" of 400 KB") })
            #expect(lines.allSatisfy { $0.count < 100 }, "\(lines)")
            #expect(lines.last?.contains("100% [##############################] 400 KB of 400 KB") == true, "\(lines)")
            #expect(drawn.hasSuffix(Self.redraw), "the bar was not cleared: \(drawn.debugDescription)")
            try #require(terminal.waitFor("tidings> "))

            terminal.type("item download \(try podcast.id("Quiet")) --no-progress\r")
            try #require(terminal.waitFor("saved item #"))
            #expect(!terminal.lastOutput.contains("%"), "\(terminal.lastOutput.debugDescription)")
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)

            try FileManager.default.removeItem(at: podcast.downloads.appendingPathComponent("episode.mp3"))
            let piped = try podcast.tidings(["item download \(try podcast.id("Slow"))"])
            #expect(piped.status == 0, "\(piped.err)")
            #expect(!piped.out.contains("\r") && !piped.out.contains("%") && !piped.err.contains("%"))

            try FileManager.default.removeItem(at: podcast.downloads.appendingPathComponent("episode.mp3"))
            let json = try TerminalSession(
                arguments: ["--home", podcast.home.path, "--json", "-c", "item download \(try podcast.id("Slow"))"],
                environment: podcast.environment)
            #expect(json.waitFor("\"resumed\":false}"), "\(json.transcript.debugDescription)")
            #expect(json.exitStatus() == 0)
            #expect(!json.transcript.contains("%"), "\(json.transcript.debugDescription)")
        }
    }

    @Test("Ctrl-C during a download returns to the prompt keeping NAME.part; the next item download resumes it")
    func interruptAndResume() async throws {
        try await PodcastSite.run([.init(title: "Stall", path: "stall/episode.mp3")]) { podcast in
            let id = try podcast.id("Stall")
            let part = podcast.downloads.appendingPathComponent("episode.mp3.part")
            let terminal = try TerminalSession(
                arguments: ["--home", podcast.home.path], environment: podcast.environment)
            try #require(terminal.waitFor("tidings> "))
            terminal.type("item download \(id)\r")
            // The server sends half, then holds the connection until the client goes.
            PodcastSite.waitForFile(part, holding: 200_000)
            kill(terminal.processIdentifier, SIGINT)  // what the terminal sends for Ctrl-C
            #expect(
                terminal.waitFor("error: interrupted; the partial file is kept: \(part.path)", seconds: 30),
                "\(terminal.transcript.debugDescription)")
            try #require(terminal.waitFor("tidings> "))
            #expect(PodcastSite.size(part) == 200_000)

            terminal.type("item download \(id)\r")
            #expect(terminal.waitFor("(400 KB, resumed at 200 KB)"), "\(terminal.transcript.debugDescription)")
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
            #expect(try Data(contentsOf: podcast.downloads.appendingPathComponent("episode.mp3")) == PodcastSite.audio)
            #expect(try podcast.requests("stall").map(\.range) == [nil, "bytes=200000-"])
        }
    }
}
