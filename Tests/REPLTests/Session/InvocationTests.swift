import ArgumentParser
import Foundation
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

@Suite("The command-line readers' flags against the argument parser's declarations")
struct InvocationDeclarationTests {
    /// The flags and the options `command` declares, as the argument parser describes them
    /// (`--experimental-dump-help`), without its own --version and --help.
    static func declared(_ command: any ParsableCommand.Type) throws -> (flags: Set<String>, options: Set<String>) {
        let info = try JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any]
        let arguments = try #require((info?["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        var flags: Set<String> = []
        var options: Set<String> = []
        for argument in arguments {
            let names = (argument["names"] as? [[String: String]] ?? []).map {
                ($0["kind"] == "short" ? "-" : "--") + ($0["name"] ?? "")
            }
            guard let name = names.first, !["--version", "-h"].contains(name) else { continue }
            if argument["kind"] as? String == "flag" { flags.insert(name) }
            if argument["kind"] as? String == "option" { options.insert(name) }
        }
        return (flags, options)
    }

    @Test("the common-form reader of tidings knows exactly the flags and options TidingsCommand declares")
    func tidings() throws {
        let declared = try Self.declared(TidingsCommand.self)
        #expect(declared.flags == Invocation.switches)
        #expect(declared.options == Invocation.valueOptions.union(["-c"]))
    }

    @Test("the common-form reader of tidings parse knows exactly the flags ParseCommand declares")
    func parse() throws {
        let declared = try Self.declared(ParseCommand.self)
        #expect(declared.flags == ParseCommand.CommonForm.switches)
        #expect(declared.options.isEmpty)
    }
}
