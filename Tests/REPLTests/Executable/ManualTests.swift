import Foundation
import Testing

@testable import REPL

/// The user reference kept in the repository (docs/tidings.1 and docs/reference.md) against the
/// program: every command, option and flag is in both, the two have the same sections, `man`
/// renders the page cleanly, and the shell completion scripts describe the flags.
@Suite("the manual and the completion scripts", .serialized)
struct ManualTests {
    /// The repository's root, found from this file's path (Tests/REPLTests/Executable/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let manPage = root.appendingPathComponent("docs/tidings.1")
    static let reference = root.appendingPathComponent("docs/reference.md")

    /// The flags `tidings --help` lists, besides `-h` and `--help`.
    static let flags = [
        "--home", "--db", "--config-url", "--app-version", "--json", "--no-color", "--keep-going", "-c",
    ]

    /// The roff source as a reader sees the words: `\-` is `-`, font changes and other
    /// zero-width escapes are gone, and every run of white space is one space.
    static func manText() throws -> String {
        var text = try String(contentsOf: manPage, encoding: .utf8)
        text = text.replacingOccurrences(of: #"\-"#, with: "-")
        text = text.replacingOccurrences(of: #"\\f[BIRP]"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\\[&c]"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\(ti"#, with: "~").replacingOccurrences(of: #"\(dq"#, with: "\"")
        return Self.words(text)
    }

    static func markdownText() throws -> String {
        words(try String(contentsOf: reference, encoding: .utf8).replacingOccurrences(of: "`", with: ""))
    }

    /// `text` with white space runs made one space, and a line broken after a hyphen joined.
    static func words(_ text: String) -> String {
        text.replacingOccurrences(of: #"-\n\s*"#, with: "-", options: .regularExpression)
            .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
    }

    /// The options a command's usage names (`--title`, `--every`, …).
    static func options(in usage: String) -> [String] {
        usage.split(whereSeparator: { " |[]".contains($0) }).map(String.init).filter { $0.hasPrefix("--") }
    }

    @Test("every REPL command and its options are in tidings.1, in reference.md and in help")
    func everyCommandIsDocumented() throws {
        let man = try Self.manText()
        let markdown = try Self.markdownText()
        let help = try TidingsBinary.run(["--home", try temporaryHome().path, "-c", "help"])
        #expect(help.status == 0, "\(help.err)")
        let helpText = Self.words(help.out)
        let names = CommandCatalog.all.flatMap(\.names)
        let options = CommandCatalog.all.flatMap { Self.options(in: $0.usage) }
        #expect(names.count > 25 && options.count > 15)
        #expect(names.filter { !man.contains($0) } == [], "commands missing from docs/tidings.1")
        #expect(names.filter { !markdown.contains($0) } == [], "commands missing from docs/reference.md")
        #expect(names.filter { !helpText.contains($0) } == [], "commands missing from help")
        #expect(options.filter { !man.contains($0) } == [], "options missing from docs/tidings.1")
        #expect(options.filter { !markdown.contains($0) } == [], "options missing from docs/reference.md")
    }

    @Test("every program flag and every --help flag is in both documents")
    func everyFlagIsDocumented() throws {
        let man = try Self.manText()
        let markdown = try Self.markdownText()
        let help = try TidingsBinary.run(["--help"])
        let listed = Set(help.out.matches(of: /(?:^|\s)(--?[a-z][a-z-]*)/).map { String($0.output.1) })
        #expect(listed.isSuperset(of: Self.flags))
        let flags = listed.union(Self.flags).union(["--generate-completion-script", "--summary", "parse"]).sorted()
        #expect(flags.filter { !man.contains($0) } == [], "flags missing from docs/tidings.1")
        #expect(flags.filter { !markdown.contains($0) } == [], "flags missing from docs/reference.md")
    }

    @Test("tidings.1 and reference.md have the same sections in the same order")
    func sameSections() throws {
        let man = try String(contentsOf: Self.manPage, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix(".SH ") }.map { $0.dropFirst(4).replacingOccurrences(of: "\"", with: "") }
        let markdown = try String(contentsOf: Self.reference, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
        #expect(man.count >= 15)
        #expect(man == markdown)
        // The roff source is ASCII: groff reads other bytes only through preconv.
        #expect(try Data(contentsOf: Self.manPage).allSatisfy { $0 < 0x80 })
    }

    @Test("the README points at the reference in the repository, not at a SPEC outside it")
    func readmeLinks() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("docs/reference.md") && readme.contains("man ./docs/tidings.1"))
        #expect(!readme.contains("SPEC.md"))
        #expect(!(try String(contentsOf: Self.reference, encoding: .utf8)).contains("SPEC.md"))
    }

    @Test(
        "groff reads tidings.1 without a warning", .enabled(if: Tool.find("groff") != nil, "groff is not installed"))
    func groffWarnings() throws {
        let result = try Tool.run("groff", ["-ww", "-z", "-man", Self.manPage.path])
        #expect(result.status == 0)
        #expect(result.err.isEmpty, "\(result.err)")
    }

    @Test(
        "man renders tidings.1 with every command and no warning",
        .enabled(if: Tool.find("man") != nil, "man is not installed (make test installs man-db)"))
    func manRenders() throws {
        for locale in ["C", "C.UTF-8"] {
            let result = try Tool.run(
                "man", ["--warnings=w", "-l", Self.manPage.path],
                environment: ["MANWIDTH": "80", "LC_ALL": locale, "MANPAGER": "cat", "PAGER": "cat"])
            #expect(result.status == 0)
            #expect(result.err.isEmpty, "\(locale): \(result.err)")
            let text = Self.words(result.out)
            #expect(text.contains("TIDINGS(1)") && text.contains("BOUNDARIES OF TRUST"))
            for name in CommandCatalog.all.flatMap(\.names) {
                #expect(text.contains(name), "the rendered page (\(locale)) lacks \"\(name)\"")
            }
        }
    }

    @Test("the completion scripts for bash, zsh and fish name every flag and the REPL's command words")
    func completionScripts() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try TidingsBinary.run(["--generate-completion-script", shell])
            #expect(result.status == 0, "\(shell): \(result.err)")
            let script = result.out
            #expect(script.split(separator: "\n").count > 20, "\(shell): \(script)")
            for flag in Self.flags + ["--version", "--help"] {
                // fish names a long flag without its dashes: -l 'home'.
                let spelled = shell == "fish" && flag.hasPrefix("--") ? "-l '\(flag.dropFirst(2))'" : flag
                let short = shell == "fish" && flag == "-c" ? "-s 'c'" : spelled
                #expect(script.contains(short), "the \(shell) script lacks \(flag)")
            }
            for word in CommandCatalog.words {
                #expect(script.contains(word), "the \(shell) script does not offer \(word) after -c")
            }
            if Tool.find(shell) != nil {
                let file = try temporaryHome().appendingPathComponent("tidings.\(shell)")
                try Data(script.utf8).write(to: file)
                let check = try Tool.run(shell, ["-n", file.path])
                #expect(check.status == 0, "\(shell) -n: \(check.err)")
            }
        }
    }
}

/// Programs on `PATH` (man, groff, the shells), run with pipes.
enum Tool {
    /// The executable `name` on `PATH`, if there is one.
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `name` with `arguments` and the environment plus `environment`, and waits for it.
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> TidingsBinary.Result {
        let process = ChildProcess()
        process.executableURL = find(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return TidingsBinary.Result(
            status: process.terminationStatus, out: String(decoding: out, as: UTF8.self),
            err: String(decoding: err, as: UTF8.self))
    }
}
