import Foundation
import Testing

/// Feed accounts against a Fever server that misbehaves (Tests/Support/fever_fake.py): hostile
/// text never reaches the terminal raw, and each broken answer is one clear reason, with
/// nothing added and the marks made here kept.
@Suite("Feed account faults")
struct AccountFaultTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Support/fever_fake.py").standardizedFileURL
    static let environment = ["TIDINGS_FEVER_PASSWORD": "secret"]

    func withHome<T>(_ body: (URL) async throws -> T) async throws -> T {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-account-fault-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: home) }
        return try await body(home)
    }

    func run(_ home: URL, _ commands: [String], json: Bool = false) throws -> TidingsBinary.Result {
        try TidingsBinary.run(
            ["--home", home.path] + (json ? ["--json"] : []) + commands.flatMap { ["-c", $0] },
            environment: Self.environment.merging(["HOME": home.path]) { a, _ in a })
    }

    func add(_ home: URL, _ base: URL) throws -> TidingsBinary.Result {
        try run(home, ["account add fever \(base.absoluteString)/fever/ --user reader@example.com"])
    }

    @Test("titles, authors, folders and links with terminal escapes and bidirectional overrides reach no terminal raw")
    func hostileText() async throws {
        try await withHome { home in
            try await withLoopbackServer(script: Self.script, arguments: ["hostile"]) { base in
                #expect(try add(home, base).status == 0)
                let commands = [
                    "account sync", "feed list", "feed tags", "items", "item show 1 --no-pager", "item show 2 --no-pager",
                    "account status", "account list",
                ]
                let text = try run(home, commands)
                #expect(text.status == 0, "\(text.err)")
                for output in [text.out, text.err] {
                    #expect(!output.contains("\u{1B}"), "\(output.debugDescription)")
                    #expect(!output.contains("\u{7}"))
                    #expect(!output.contains("\u{202E}"))
                }
                #expect(text.out.contains("Title"))
                // JSON writes them as escapes.
                let json = try run(home, ["items"], json: true)
                #expect(!json.out.contains("\u{1B}"))
                #expect(json.out.contains("\\u001b"), "\(json.out)")
                // A javascript: link is no link.
                #expect(!text.out.contains("javascript:"))
            }
        }
    }

    @Test(
        "an HTML page, cut-off JSON or a refused password: one reason, nothing added",
        arguments: [
            ("html", "an HTML or XML page"), ("truncated", "cut off or invalid"), ("auth0", "refused the user and password"),
        ])
    func brokenServers(mode: String, reason: String) async throws {
        try await withHome { home in
            try await withLoopbackServer(script: Self.script, arguments: [mode]) { base in
                let added = try add(home, base)
                #expect(added.status == 1)
                #expect(added.err.contains(reason), "\(added.err)")
                #expect(added.err.split(separator: "\n").count == 1, "\(added.err)")
                #expect(try run(home, ["account list"]).out.contains("no accounts"))
            }
        }
    }

    @Test("a server that is gone: the sync fails with the reason, and the marks made here wait for the next one")
    func serverDown() async throws {
        try await withHome { home in
            try await withLoopbackServer(script: Self.script, arguments: ["hostile"]) { (base: URL) async throws in
                let added = try add(home, base)
                #expect(added.status == 0)
                let marked = try run(home, ["account sync", "item mark 1 read"])
                #expect(marked.status == 0, "\(marked.err)")
            }
            // The server has stopped.
            let sync = try run(home, ["account sync"])
            #expect(sync.status == 1)
            #expect(sync.out.contains("account #1: failed: the request failed"), "\(sync.out) \(sync.err)")
            let status = try run(home, ["account status"])
            #expect(status.out.contains("last sync failed: the request failed"), "\(status.out)")
            #expect(status.out.contains("1 mark made here to send"), "\(status.out)")
            let refresh = try run(home, ["feed refresh"])
            #expect(refresh.status == 1)
            #expect(refresh.out.contains("account #1: failed"), "\(refresh.out)")
        }
    }
}
