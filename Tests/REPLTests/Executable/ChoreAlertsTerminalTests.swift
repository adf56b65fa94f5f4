import Foundation
import Testing

/// Chore alerts as an interactive session shows them, in a real pseudo-terminal.
@Suite("chore alerts in a terminal", .serialized)
struct ChoreAlertsTerminalTests {
    @Test("the session starts by saying what is overdue and due today, and tells of a chore another process adds")
    func alerts() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let setUp = try TidingsBinary.run([
            "--home", home.path, "-c", "task add Taxes --due yesterday", "-c", "task add Sweep --due today",
            "-c", "task add Later --due +3d",
        ])
        #expect(setUp.status == 0, "\(setUp.err)")
        let terminal = try TerminalSession(arguments: ["--home", home.path])
        #expect(terminal.waitFor("1 overdue, 1 due today"), "\(terminal.transcript)")
        #expect(terminal.waitFor("tidings> "))
        let other = try TidingsBinary.run(["--home", home.path, "-c", "task add Post --due today"])
        #expect(other.status == 0, "\(other.err)")
        terminal.type("\r")
        #expect(terminal.waitFor("due today: #4 Post"), "\(terminal.transcript)")
        #expect(terminal.waitFor("tidings> "))
        terminal.type("\r")  // told once
        #expect(terminal.waitFor("tidings> "))
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
        #expect(terminal.transcript.components(separatedBy: "due today: #4 Post").count == 2)
        #expect(!terminal.transcript.contains("Later"))
    }

    @Test("nothing is said when nothing is due, and scripts never say it")
    func quiet() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script = try TidingsBinary.run(["--home", home.path, "-c", "task add Taxes --due yesterday"])
        #expect(script.status == 0 && !script.err.contains("overdue"), "\(script.err)")
        let next = try TidingsBinary.run(["--home", home.path, "-c", "task list"])
        #expect(!next.err.contains("overdue"))
        let empty = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: empty) }
        let terminal = try TerminalSession(arguments: ["--home", empty.path])
        #expect(terminal.waitFor("tidings> "))
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
        #expect(!terminal.transcript.contains("due today") && !terminal.transcript.contains("overdue"))
    }
}
