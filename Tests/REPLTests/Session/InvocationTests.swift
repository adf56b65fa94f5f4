import ArgumentParser
import Testing

@testable import REPL

@Suite("Reading the command line without the argument parser")
struct InvocationTests {
    /// What the argument parser makes of `arguments`.
    func parsed(_ arguments: [String]) throws -> Invocation {
        let command = try #require(try TidingsCommand.parseAsRoot(arguments) as? TidingsCommand)
        return command.invocation
    }

    @Test(
        "plain invocations are read as the argument parser reads them",
        arguments: [
            [],
            ["-c", "task add x"],
            ["--home", "/tmp/h", "-c", "feed list", "-c", "items --unread"],
            ["--json", "--no-color", "--keep-going", "--db", "/tmp/x.sqlite", "-c", "task list"],
            ["--config-url", "https://example.com/c.json", "--app-version", "1.2.3", "script.tidings"],
            ["script.tidings", "--json"],
            ["-c", ""],
            ["-c", "items --search 'a b'", "--home", "relative/dir"],
        ])
    func sameAsParser(arguments: [String]) throws {
        let direct = try #require(Invocation(commonForm: arguments))
        #expect(direct == (try parsed(arguments)))
    }

    @Test(
        "anything else is left to the argument parser",
        arguments: [
            ["--help"], ["-h"], ["help"], ["--version", "--json"], ["--home=/tmp/h"], ["--home", "a", "--home", "b"],
            ["--json", "--json"], ["-c"], ["-c", "-x"], ["--home", "--json"], ["-"], [""], ["a", "b"],
            ["-c", "x", "script"], ["--app-version", "one"], ["--config-url", "ftp://x"], ["--home", ""],
            ["--generate-completion-script", "bash"], ["--", "x"], ["-cx"], ["--unknown"], ["--db"],
        ])
    func leftToParser(arguments: [String]) {
        #expect(Invocation(commonForm: arguments) == nil)
    }
}
