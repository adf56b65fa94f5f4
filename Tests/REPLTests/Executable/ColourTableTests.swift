import Foundation
import Testing

/// Colour in a real pseudo-terminal: every table shown in colour is the same table as without
/// colour, but for SGR sequences, and a coloured cell keeps its width and its colour.
@Suite("tidings tables in colour", .serialized)
struct ColourTableTests {
    /// The commands whose output is a table (or holds one).
    static let commands = [
        "feed list", "items", "items --unread", "task list", "task list --all", "task list --overdue", "config show",
    ]

    /// Runs `commands` in two interactive sessions at once, one in colour and one without, each
    /// command in both back to back (so a relative time, "2 min. ago", reads the same in both),
    /// and returns each one's outputs as the terminals got them.
    func outputs(home: URL) throws -> (coloured: [String], plain: [String]) {
        let coloured = try TerminalSession(
            arguments: ["--home", home.path], columns: 72, environment: [:], unset: ["NO_COLOR"])
        let plain = try TerminalSession(
            arguments: ["--home", home.path], columns: 72, environment: ["NO_COLOR": "1"])
        for terminal in [coloured, plain] { try #require(terminal.waitFor("tidings> ")) }
        var outputs: (coloured: [String], plain: [String]) = ([], [])
        for command in Self.commands {
            for terminal in [coloured, plain] { terminal.type(command + "\r") }
            for terminal in [coloured, plain] {
                try #require(terminal.waitFor("tidings> "), "\(command): \(terminal.transcript)")
            }
            outputs.coloured.append(coloured.lastOutput)
            outputs.plain.append(plain.lastOutput)
        }
        for terminal in [coloured, plain] {
            terminal.type("quit\r")
            #expect(terminal.exitStatus() == 0)
        }
        return outputs
    }

    /// `text` without SGR sequences.
    static func withoutColour(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// What `command` printed: its output without the line editor's echo of it (libedit redraws
    /// that line differently depending on how the keys arrived, and under load echoed it on two
    /// lines): the first line, and any more that hold the command once the terminal's control
    /// sequences are taken out.
    static func printed(_ output: String, _ command: String) -> String {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        while let first = lines.first,
            first.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]|\r", with: "", options: .regularExpression)
                .contains(command)
        {
            lines.removeFirst()
        }
        return lines.joined(separator: "\n")
    }

    @Test("every table in colour is the table without colour plus SGR; an overdue date is red and whole")
    func tables() async throws {
        try await withSiteAndHome { site, home in
            try ReadingTests.feed(paragraphs: 1).write(
                to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            let setup = try TidingsBinary.run([
                "--home", home.path, "-c", "feed add \(site.path)/f.xml",
                "-c", "task add \"Clean gutters and downpipes\" --due 2020-10-01 --every 1 year",
                "-c", "task add \"Water plants\" --due +3d",
            ])
            #expect(setup.status == 0, "\(setup.err)")
            let (coloured, plain) = try outputs(home: home)
            for (index, command) in Self.commands.enumerated() {
                #expect(
                    Self.withoutColour(Self.printed(coloured[index], command)) == Self.printed(plain[index], command),
                    "\(command)")
                #expect(!coloured[index].unicodeScalars.contains { (0xFDD0...0xFDEF).contains($0.value) }, "\(command)")
            }
            let list = coloured[Self.commands.firstIndex(of: "task list") ?? 0]
            #expect(list.contains("\u{1B}[31m2020-10-01\u{1B}[0m  every year  Clean gutters and downpipes"), "\(list)")
            #expect(plain[Self.commands.firstIndex(of: "task list") ?? 0].contains("Clean gutters and downpipes"))
        }
    }
}
