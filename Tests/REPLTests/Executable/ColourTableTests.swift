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

    /// Runs `commands` in an interactive session and returns each one's output as the terminal
    /// got it.
    func outputs(home: URL, colour: Bool) throws -> [String] {
        let terminal = try TerminalSession(
            arguments: ["--home", home.path], columns: 72, environment: colour ? [:] : ["NO_COLOR": "1"],
            unset: colour ? ["NO_COLOR"] : [])
        try #require(terminal.waitFor("tidings> "))
        var outputs: [String] = []
        for command in Self.commands {
            terminal.type(command + "\r")
            try #require(terminal.waitFor("tidings> "), "\(command): \(terminal.transcript)")
            outputs.append(terminal.lastOutput)
        }
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
        return outputs
    }

    /// `text` without SGR sequences.
    static func withoutColour(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
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
            let coloured = try outputs(home: home, colour: true)
            let plain = try outputs(home: home, colour: false)
            for (index, command) in Self.commands.enumerated() {
                #expect(Self.withoutColour(coloured[index]) == plain[index], "\(command)")
                #expect(!coloured[index].unicodeScalars.contains { (0xFDD0...0xFDEF).contains($0.value) }, "\(command)")
            }
            let list = coloured[Self.commands.firstIndex(of: "task list") ?? 0]
            #expect(list.contains("\u{1B}[31m2020-10-01\u{1B}[0m  every year  Clean gutters and downpipes"), "\(list)")
            #expect(plain[Self.commands.firstIndex(of: "task list") ?? 0].contains("Clean gutters and downpipes"))
        }
    }
}
