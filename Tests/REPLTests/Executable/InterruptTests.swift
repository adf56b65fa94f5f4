import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits (bounded) until the feed server holds a request under /slow/.
///
/// It polls without awaiting, keeping its thread: on a busy machine an await can resume seconds
/// late, and the program's own timeout (10 s for the config) could end the request before the
/// Ctrl-C arrives.
private func waitForSlowRequest(in site: URL) {
    let marker = site.appendingPathComponent(".slow-request")
    let deadline = ContinuousClock.now + .seconds(30)
    while !FileManager.default.fileExists(atPath: marker.path) && ContinuousClock.now < deadline {
        usleep(5_000)
    }
    #expect(FileManager.default.fileExists(atPath: marker.path), "the slow request never reached the server")
}

/// Runs `body` with a fresh site directory served by the feed server (its /slow/ paths held) and
/// a fresh home, both removed afterwards.
private func withSlowSite(_ body: (_ base: URL, _ site: URL, _ home: URL) async throws -> Void) async throws {
    let site = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-slow-\(UUID().uuidString)")
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer {
        try? FileManager.default.removeItem(at: site)
        try? FileManager.default.removeItem(at: home)
    }
    try await withFeedServer(serving: site) { base in try await body(base, site, home) }
}

/// Runs the binary in script mode with `arguments`, sends it SIGINT (Ctrl-C) once its request
/// is held by the server, and returns its exit status and everything it printed.
private func interruptedScript(_ arguments: [String], site: URL) async throws -> (status: Int32, output: String) {
    let process = ChildProcess()
    process.executableURL = TidingsBinary.url
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    waitForSlowRequest(in: site)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, text)
}

@Suite("tidings interrupted", .serialized)
struct InterruptTests {
    @Test("Ctrl-C during a slow refresh cancels it and returns to the prompt; the session goes on")
    func interruptRefresh() async throws {
        try await withSlowSite { base, site, home in
            let opml = home.appendingPathComponent("slow.opml")
            try """
            <?xml version="1.0"?><opml version="2.0"><head><title>slow</title></head><body>
            <outline type="rss" text="Slow" xmlUrl="\(base.absoluteString)/slow/feed.xml"/></body></opml>
            """.write(to: opml, atomically: true, encoding: .utf8)
            let terminal = try TerminalSession(arguments: ["--home", home.path])
            #expect(terminal.waitFor("tidings> "))
            terminal.type("feed import \(opml.path)\r")
            #expect(terminal.waitFor("imported 1 feed"))
            #expect(terminal.waitFor("tidings> "))
            terminal.type("feed refresh\r")
            waitForSlowRequest(in: site)
            kill(terminal.processIdentifier, SIGINT)  // what the terminal sends for Ctrl-C
            // Within 25 s: the exchange itself would time out after 30 s and also end as
            // "interrupted", so a Ctrl-C that waited for it must not pass.
            #expect(terminal.waitFor("error: interrupted", seconds: 25))
            #expect(terminal.waitFor("tidings> "))
            terminal.type("help quit\r")
            #expect(terminal.waitFor("usage: quit"))
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
    }

    @Test("quit while the background config refresh waits on a slow server cancels the refresh and exits at once")
    func quitDuringBackgroundRefresh() async throws {
        try await withSlowSite { base, site, home in
            let terminal = try TerminalSession(arguments: [
                "--home", home.path, "--config-url", "\(base.absoluteString)/slow/config.json",
            ])
            #expect(terminal.waitFor("tidings> "))
            waitForSlowRequest(in: site)
            terminal.type("quit\r")
            // The server holds the request for 60 s and the fetch times out 10 s after it began:
            // only cancelling it lets the session end within 8 s of the quit (typed at once).
            #expect(
                terminal.exitStatus(seconds: 8) == 0, "the terminal showed: \(terminal.transcript.debugDescription)")
            #expect(!terminal.transcript.contains("crashed"))
        }
    }

    @Test("Ctrl-C at the prompt drops the line being typed and draws a fresh prompt")
    func interruptLine() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("tidings> "))
        terminal.type("half typed")
        #expect(terminal.waitFor("half typed"))
        kill(terminal.processIdentifier, SIGINT)
        #expect(terminal.waitFor("tidings> "))
        terminal.type("help quit\r")
        #expect(terminal.waitFor("usage: quit"))
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
        let history = try String(contentsOf: home.appendingPathComponent("history"), encoding: .utf8)
        #expect(history == "help quit\nquit\n")
    }

    @Test("Ctrl-C in a script stops it with status 130")
    func interruptScript() async throws {
        try await withSlowSite { base, site, home in
            let run = try await interruptedScript(
                ["--home", home.path, "-c", "feed add \(base.absoluteString)/slow/feed.xml", "-c", "help"], site: site)
            #expect(run.status == 130)
            #expect(run.output == "error: interrupted\n")
        }
    }
}

@Suite("tidings interrupted during a config refresh", .serialized)
struct ConfigInterruptTests {
    @Test("Ctrl-C during config refresh on a slow server stops it with status 130 and keeps the config")
    func interruptConfigRefresh() async throws {
        try await withSlowSite { base, site, home in
            let run = try await interruptedScript(
                [
                    "--home", home.path, "--config-url", "\(base.absoluteString)/slow/config.json", "-c",
                    "config refresh",
                ],
                site: site)
            #expect(run.status == 130)
            #expect(run.output == "error: interrupted\n")
            let status = try TidingsBinary.run(["--home", home.path, "-c", "config get minVersion"])
            #expect(status.out == "\"1.0.0\"  (default)\n")
        }
    }
}

@Suite("tidings parse interrupted", .serialized)
struct ParseInterruptTests {
    @Test("Ctrl-C while tidings parse waits on a slow server cancels the fetch: status 130, one line")
    func interruptParse() async throws {
        try await withSlowSite { base, site, _ in
            let run = try await interruptedScript(["parse", "\(base.absoluteString)/slow/feed.xml"], site: site)
            #expect(run.status == 130)
            #expect(run.output == "tidings: interrupted\n")
        }
    }
}

@Suite("tidings interrupted while idle", .serialized)
struct IdleInterruptTests {
    @Test("Ctrl-C while a script waits for its next line on standard input ends it with status 130")
    func idle() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let binary = try #require(TidingsBinary.url)
        let process = ChildProcess()
        process.executableURL = binary
        process.arguments = ["--home", home.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("task add Sweep\n".utf8))
        // Wait (bounded, reading without blocking) until the first line has run, then interrupt
        // while the script waits for more.
        let descriptor = output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(60)
        while !text.contains("added task") && ContinuousClock.now < deadline {
            usleep(10_000)
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 { text += String(decoding: buffer[0..<count], as: UTF8.self) }
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(text.contains(#"added task #1 "Sweep""#))
        #expect(process.terminationStatus == 130)
    }
}

@Suite("tidings completion in a terminal", .serialized)
struct CompletionTerminalTests {
    @Test("fe<Tab> completes to \"feed \", and a second Tab after it lists the sub-commands")
    func completesFeed() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("tidings> "))
        terminal.type("fe\t")
        #expect(terminal.waitFor("ed "))  // libedit redraws the completed word from the cursor
        terminal.type("\t\t")
        #expect(terminal.waitFor("discover"))
        terminal.type("\u{15}quit\r")  // Ctrl-U clears the line
        #expect(terminal.exitStatus() == 0, "the terminal showed: \(terminal.transcript.debugDescription)")
    }
}
