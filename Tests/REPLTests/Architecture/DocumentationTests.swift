import Foundation
import Testing

/// Holds each library's DocC root page to compiled code: every code block of
/// `Sources/<Module>/<Module>.docc/<Module>.md` must appear, line for line, in
/// `Tests/<Module>Tests/GettingStartedTests.swift`, whose tests run it. A snippet edited on the
/// page alone, or an API change that breaks the snippet's copy, fails here or in the build.
@Suite("Documentation")
struct DocumentationTests {
    /// The library products, each with a catalog of its own name.
    static let modules = ["Models", "Networking", "Storage", "Config", "FeedParser", "Feed", "Chores", "Accounts"]

    static var packageDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The fenced code blocks of a Markdown page, each as its lines.
    static func codeBlocks(in markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The number of leading spaces of a line.
    static func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    /// Whether `block` appears in `source`: its `import` lines anywhere (a test file keeps them
    /// at the top), the rest as consecutive lines, all shifted by the same indentation; blank
    /// lines match blank lines.
    static func appears(_ block: [String], in source: [String]) -> Bool {
        let sourceLines = Set(source)
        let imports = block.filter { $0.hasPrefix("import ") }
        guard imports.allSatisfy(sourceLines.contains) else { return false }
        var body = Array(block.drop { $0.hasPrefix("import ") || $0.trimmingCharacters(in: .whitespaces).isEmpty })
        while body.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { body.removeLast() }
        guard let first = body.first else { return true }
        let firstText = first.trimmingCharacters(in: .whitespaces)
        candidates: for start in source.indices where source[start].trimmingCharacters(in: .whitespaces) == firstText {
            let shift = indentation(source[start]) - indentation(first)
            guard shift >= 0, start + body.count <= source.count else { continue }
            for (offset, line) in body.enumerated() {
                let candidate = source[start + offset]
                if line.trimmingCharacters(in: .whitespaces).isEmpty {
                    guard candidate.trimmingCharacters(in: .whitespaces).isEmpty else { continue candidates }
                } else if candidate != String(repeating: " ", count: shift) + line {
                    continue candidates
                }
            }
            return true
        }
        return false
    }

    @Test("each library's root page shows only code that its getting-started tests compile and run", arguments: modules)
    func rootPageSnippetsAreTested(module: String) throws {
        let page = Self.packageDirectory.appendingPathComponent("Sources/\(module)/\(module).docc/\(module).md")
        let tests = Self.packageDirectory.appendingPathComponent("Tests/\(module)Tests/GettingStartedTests.swift")
        let markdown = try String(contentsOf: page, encoding: .utf8)
        let source = try String(contentsOf: tests, encoding: .utf8).components(separatedBy: "\n")

        #expect(markdown.hasPrefix("# ``\(module)``\n"), "the root page's title must be the module's symbol")
        #expect(markdown.contains("\n## Topics\n"), "the root page lists the module's types under Topics")
        let blocks = Self.codeBlocks(in: markdown)
        #expect(!blocks.isEmpty, "\(module).md has no getting-started code")
        for block in blocks {
            let found = Self.appears(block, in: source)  // a bare Bool, so a failure prints the block, not the file
            #expect(
                found,
                "this block of \(module).md is not in \(tests.lastPathComponent) as written:\n\(block.joined(separator: "\n"))"
            )
        }
    }

    @Test("a catalog without a getting-started test shows no code")
    func otherCatalogsShowNoCode() throws {
        let sources = Self.packageDirectory.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        let pages = (enumerator?.allObjects ?? []).compactMap { $0 as? URL }
            .filter { $0.pathExtension == "md" && $0.deletingLastPathComponent().pathExtension == "docc" }
        #expect(pages.count >= Self.modules.count, "no DocC catalogs found under \(sources.path)")
        for page in pages {
            let module = page.deletingLastPathComponent().deletingPathExtension().lastPathComponent
            guard !Self.modules.contains(module) else { continue }
            let blocks = Self.codeBlocks(in: try String(contentsOf: page, encoding: .utf8))
            #expect(blocks.isEmpty, "\(page.lastPathComponent) shows code that no test compiles: add it to modules")
        }
    }

    @Test("the check finds a block at any indentation and misses one whose code or nesting differs")
    func checkerCanFail() {
        let source = [
            "import Foundation", "import Models", "", "struct S {", "    func f() -> Int {", "        let x = 1",
            "", "        return x", "    }", "}",
        ]
        #expect(Self.appears(["import Models", "", "let x = 1", "", "return x"], in: source))
        #expect(Self.appears(["func f() -> Int {", "    let x = 1"], in: source))
        #expect(!Self.appears(["let x = 2", "", "return x"], in: source))
        #expect(!Self.appears(["let x = 1", "return x"], in: source))
        #expect(!Self.appears(["func f() -> Int {", "let x = 1"], in: source))
        #expect(!Self.appears(["import Networking", "let x = 1"], in: source))
        #expect(Self.codeBlocks(in: "Text\n\n```swift\na\n  b\n```\n\n```\nc\n```\n") == [["a", "  b"], ["c"]])
    }
}
