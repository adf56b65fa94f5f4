import Accounts
import Foundation
import Testing

@testable import DefaultTransport

/// `account sync` killed with SIGKILL at moments spread over its work, again and again: the
/// sync that ends stores every item once, sends every mark made here, and leaves none pending.
@Suite("account sync killed midway", .serialized, .timeLimit(.minutes(10)))
struct AccountSyncKillTests {
    @Test("syncs killed at any moment, then one that ends: every item once, every mark on the server, none pending")
    func killedSyncs() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-account-kill-\(UUID().uuidString)", isDirectory: true)
        let feeds = directory.appendingPathComponent("feeds", isDirectory: true)
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["alpha", "beta", "gamma"] {
            try Data(AccountCommandTests.rss(name, items: 9).utf8).write(to: feeds.appendingPathComponent("\(name).rss"))
        }
        // 120 items more in one feed, so that paging takes several pages.
        let many = (1...120).map { index in
            "<item><title>many \(index)</title><guid>https://many.example/\(index)</guid><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate></item>"
        }
        try Data(
            #"<?xml version="1.0"?><rss version="2.0"><channel><title>many</title><link>https://many.example/</link>\#(many.joined())</channel></rss>"#
                .utf8
        ).write(to: feeds.appendingPathComponent("many.rss"))
        try await withFeedServer(serving: feeds) { base in
            let urls = ["alpha", "beta", "gamma", "many"].map { base.appendingPathComponent("\($0).rss") }
            try await withColdsweat(feeds: urls) { server in
                let environment = ["TIDINGS_FEVER_PASSWORD": server.credentials.password, "HOME": directory.path]
                func home(_ name: String) -> String { directory.appendingPathComponent(name).path }
                func run(_ home: String, _ commands: [String], json: Bool = false) throws -> TidingsBinary.Result {
                    try TidingsBinary.run(
                        ["--home", home] + (json ? ["--json"] : []) + commands.flatMap { ["-c", $0] },
                        environment: environment)
                }
                let add = "account add fever \(server.endpoint.absoluteString) --user \(server.credentials.user)"

                // How long a whole first sync takes here, to spread the kills over it.
                #expect(try run(home("probe"), [add]).status == 0)
                let started = Date()
                let probe = try run(home("probe"), ["account sync"])
                let whole = Date().timeIntervalSince(started)
                #expect(probe.out.contains("147 new items"), "\(probe.out) \(probe.err)")

                let target = home("target")
                #expect(try run(target, [add]).status == 0)
                var killed = 0
                var scale = 1.0
                func killedSync(after delay: Double) async throws {
                    let process = try TidingsBinary.start(
                        ["--home", target, "-c", "account sync"], environment: environment)
                    await TidingsBinary.kill(process, after: delay * scale)
                    if process.terminationReason == .uncaughtSignal { killed += 1 } else { scale = max(scale / 2, 1.0 / 8) }
                }
                for step in 1..<8 { try await killedSync(after: whole * Double(step) / 8) }
                let finished = try run(target, ["account sync"])
                #expect(finished.status == 0, "\(finished.err)")
                func count(_ home: String) throws -> (items: Int, unread: Int) {
                    let json = try #require(
                        try JSONSerialization.jsonObject(with: Data(try run(home, ["feed list"], json: true).out.utf8))
                            as? [String: Any])
                    let feeds = try #require(json["feeds"] as? [[String: Any]])
                    return (
                        feeds.reduce(0) { $0 + (($1["total"] as? Int) ?? 0) },
                        feeds.reduce(0) { $0 + (($1["unread"] as? Int) ?? 0) }
                    )
                }
                #expect(try count(target).items == 147, "\(killed) syncs killed")
                // The kills landed inside syncs (else this proves nothing).
                #expect(killed >= 3, "only \(killed) of 7 syncs were killed before they ended")

                // Marks made here, then syncs killed again: the one that ends sends each once.
                let items = try #require(
                    try JSONSerialization.jsonObject(
                        with: Data(try run(target, ["items --limit 40"], json: true).out.utf8)) as? [String: Any])
                let ids = try #require(items["items"] as? [[String: Any]]).compactMap { $0["id"] as? Int }
                #expect(ids.count == 40)
                #expect(try run(target, ["item mark \(ids.map(String.init).joined(separator: " ")) read"]).status == 0)
                #expect(try run(target, ["item mark \(ids[0]) \(ids[1]) star"]).status == 0)
                let killedBefore = killed
                for step in 1..<6 { try await killedSync(after: whole * Double(step) / 16) }
                #expect(killed > killedBefore, "no sync with marks to send was killed before it ended")
                #expect(try run(target, ["account sync"]).status == 0)
                let status = try run(target, ["account status"])
                #expect(status.out.contains("0 marks made here to send"), "\(status.out)")
                let client = try FeverClient(
                    endpoint: server.endpoint, credentials: server.credentials, transport: makeDefaultTransport())
                #expect(try await client.unreadItemIDs().count == 147 - 40)
                #expect(try await client.savedItemIDs().count == 2)
                #expect(try count(target) == (147, 107))
                // A last sync has nothing to do.
                #expect(try run(target, ["account sync"]).out.contains("0 new items, 0 marks sent"))
            }
        }
    }
}
