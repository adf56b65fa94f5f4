import Accounts
import Foundation
import Testing

@testable import DefaultTransport

/// `account …` as a user runs it: the built binary, a home of its own, a real Coldsweat on
/// 127.0.0.1 that fetched real feeds, the password in the environment.
@Suite("Feed account commands", .serialized)
struct AccountCommandTests {
    static func rss(_ name: String, items count: Int) -> String {
        let items = (1...count).map { index in
            "<item><title>\(name) \(index)</title><link>https://\(name).example/\(index)</link><guid>https://\(name).example/\(index)</guid><description>Item \(index)</description><pubDate>Mon, 0\(index) Nov 2026 10:00:00 GMT</pubDate></item>"
        }
        return """
            <?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>\(name)</title>\
            <link>https://\(name).example/</link><description>\(name)</description>\(items.joined())</channel></rss>
            """
    }

    @Test("add, sync, list, read and mark, refresh and remove: the account's feeds and items beside the local ones")
    func session() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-account-\(UUID().uuidString)", isDirectory: true)
        let feeds = directory.appendingPathComponent("feeds", isDirectory: true)
        let home = directory.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.rss("alpha", items: 3).utf8).write(to: feeds.appendingPathComponent("alpha.rss"))
        try Data(Self.rss("beta", items: 2).utf8).write(to: feeds.appendingPathComponent("beta.rss"))
        try await withFeedServer(serving: feeds) { base in
            try await withColdsweat(feeds: [base.appendingPathComponent("alpha.rss"), base.appendingPathComponent("beta.rss")]) {
                server in
                let password = ["TIDINGS_FEVER_PASSWORD": server.credentials.password, "HOME": directory.path]
                func run(_ commands: [String], json: Bool = false, environment: [String: String] = password) throws
                    -> TidingsBinary.Result
                {
                    try TidingsBinary.run(
                        ["--home", home.path] + (json ? ["--json"] : []) + commands.flatMap { ["-c", $0] },
                        environment: environment)
                }
                let endpoint = server.endpoint.absoluteString

                // A wrong password is refused, and nothing is added.
                let refused = try run(
                    ["account add fever \(endpoint) --user \(server.credentials.user)"],
                    environment: ["TIDINGS_FEVER_PASSWORD": "wrong password", "HOME": directory.path])
                #expect(refused.status == 1)
                #expect(refused.err.contains("refused the user and password"), "\(refused.err)")
                #expect(try run(["account list"]).out.contains("no accounts"))

                let added = try run(["account add fever \(endpoint) --user \(server.credentials.user)"])
                #expect(added.status == 0, "\(added.err)")
                #expect(added.out.contains("added account #1"))
                let synced = try run(["account sync"])
                #expect(synced.status == 0, "\(synced.err)")
                #expect(synced.out.contains("account #1: 5 new items, 0 marks sent, 2 feeds added"), "\(synced.out)")
                #expect(!synced.out.contains(server.credentials.password) && !synced.err.contains(server.credentials.password))

                let list = try run(["feed list"], json: true)
                let feedsJSON = try #require(
                    try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
                let listed = try #require(feedsJSON["feeds"] as? [[String: Any]])
                #expect(listed.count == 2)
                #expect(listed.allSatisfy { ($0["account"] as? Int) == 1 })
                #expect(try run(["feed list"]).out.contains("via account #1"))

                // Read one here, star another; the next sync sends both.
                let items = try #require(
                    try JSONSerialization.jsonObject(with: Data(try run(["items"], json: true).out.utf8)) as? [String: Any])
                let rows = try #require(items["items"] as? [[String: Any]])
                #expect(rows.count == 5)
                #expect(rows.allSatisfy { ($0["account"] as? Int) == 1 })
                #expect(try run(["items"]).out.contains("[acct 1]"))
                let alpha1 = try #require(rows.first { ($0["title"] as? String) == "alpha 1" }?["id"] as? Int)
                let beta2 = try #require(rows.first { ($0["title"] as? String) == "beta 2" }?["id"] as? Int)
                #expect(try run(["item mark \(alpha1) read", "item mark \(beta2) star"]).status == 0)
                #expect(try run(["account status"]).out.contains("2 marks made here to send"))
                let sent = try run(["account sync"], json: true)
                #expect(sent.out.contains(#""marks_sent":2"#), "\(sent.out)")
                let client = try FeverClient(
                    endpoint: server.endpoint, credentials: server.credentials, transport: makeDefaultTransport())
                #expect(try await client.unreadItemIDs().count == 4)
                #expect(try await client.savedItemIDs().count == 1)

                // The server's subscriptions are not this app's to change, nor its feeds to fetch.
                let removeFeed = try run(["feed remove 1"], json: true)
                #expect(removeFeed.status == 1)
                #expect(removeFeed.out.contains("managed_by_account"), "\(removeFeed.out)")
                // A refresh fetches none of the account's feeds itself: it syncs the account.
                let addAgain = try run(["feed add \(base.appendingPathComponent("alpha.rss").absoluteString)"], json: true)
                #expect(addAgain.status == 1)
                #expect(addAgain.out.contains("managed_by_account"), "\(addAgain.out)")
                #expect(addAgain.err.contains("whose server keeps its subscriptions"), "\(addAgain.err)")
                let refresh = try run(["feed refresh"])
                #expect(refresh.out.contains("refreshed 0 feeds"), "\(refresh.out)")
                #expect(refresh.out.contains("account #1: 0 new items, 0 marks sent"), "\(refresh.out)")
                let named = try run(["feed refresh 2"], json: true)
                #expect(named.out.contains(#""accounts":[{"#), "\(named.out)")
                #expect(named.out.contains(#""refreshed":0"#), "\(named.out)")

                let removed = try run(["account remove 1", "feed list"])
                #expect(removed.out.contains("removed account #1 and its 2 feeds"), "\(removed.out)")
                let after = try #require(
                    try JSONSerialization.jsonObject(with: Data(try run(["items"], json: true).out.utf8)) as? [String: Any])
                #expect((after["items"] as? [Any])?.isEmpty == true)
                #expect(try run(["account list"]).out.contains("no accounts"))
            }
        }
    }

    @Test("an interactive session syncs its accounts in the background, at start and after marks, and shows what came")
    func background() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-account-bg-\(UUID().uuidString)", isDirectory: true)
        let feeds = directory.appendingPathComponent("feeds", isDirectory: true)
        let home = directory.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.rss("alpha", items: 3).utf8).write(to: feeds.appendingPathComponent("alpha.rss"))
        try await withFeedServer(serving: feeds) { base in
            try await withColdsweat(feeds: [base.appendingPathComponent("alpha.rss")]) { server in
                let environment = ["TIDINGS_FEVER_PASSWORD": server.credentials.password, "HOME": directory.path]
                let added = try TidingsBinary.run(
                    [
                        "--home", home.path, "-c",
                        "account add fever \(server.endpoint.absoluteString) --user \(server.credentials.user)",
                    ], environment: environment)
                #expect(added.status == 0, "\(added.err)")
                let terminal = try TerminalSession(arguments: ["--home", home.path], environment: environment)
                #expect(terminal.waitFor("tidings> "))
                // The sync at start brings the three items; its line comes before a next prompt.
                var shown = false
                for _ in 0..<120 where !shown {
                    terminal.type("\r")
                    shown = terminal.waitFor("account #1: 3 new items", seconds: 0.5)
                }
                #expect(shown, "\(terminal.transcript)")
                // A mark made at the prompt goes to the server two seconds later.
                terminal.type("item mark 1 read\r")
                #expect(terminal.waitFor("tidings> "))
                let client = try FeverClient(
                    endpoint: server.endpoint, credentials: server.credentials, transport: makeDefaultTransport())
                let deadline = ContinuousClock.now + .seconds(60)
                while try await client.unreadItemIDs().count != 2, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                }
                #expect(try await client.unreadItemIDs().count == 2, "\(terminal.transcript)")
                terminal.type("quit\r")
                #expect(terminal.exitStatus() == 0)
            }
        }
    }

    @Test("two homes sharing one account see the same unread and starred items after each syncs, through offline marks on both")
    func twoHomes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tidings-account-homes-\(UUID().uuidString)", isDirectory: true)
        let feeds = directory.appendingPathComponent("feeds", isDirectory: true)
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.rss("alpha", items: 4).utf8).write(to: feeds.appendingPathComponent("alpha.rss"))
        try Data(Self.rss("beta", items: 3).utf8).write(to: feeds.appendingPathComponent("beta.rss"))
        try await withFeedServer(serving: feeds) { base in
            try await withColdsweat(feeds: [base.appendingPathComponent("alpha.rss"), base.appendingPathComponent("beta.rss")]) {
                server in
                let environment = ["TIDINGS_FEVER_PASSWORD": server.credentials.password, "HOME": directory.path]
                func run(_ home: String, _ commands: [String], json: Bool = false) throws -> TidingsBinary.Result {
                    try TidingsBinary.run(
                        ["--home", directory.appendingPathComponent(home).path] + (json ? ["--json"] : [])
                            + commands.flatMap { ["-c", $0] }, environment: environment)
                }
                /// Each item's id by title, and the titles unread and starred.
                func state(_ home: String) throws -> (ids: [String: Int], unread: Set<String>, starred: Set<String>) {
                    let json = try #require(
                        try JSONSerialization.jsonObject(with: Data(try run(home, ["items --limit 100"], json: true).out.utf8))
                            as? [String: Any])
                    let rows = try #require(json["items"] as? [[String: Any]])
                    var ids: [String: Int] = [:]
                    var unread = Set<String>()
                    var starred = Set<String>()
                    for row in rows {
                        let title = row["title"] as? String ?? ""
                        ids[title] = row["id"] as? Int
                        if row["unread"] as? Bool == true { unread.insert(title) }
                        if row["starred"] as? Bool == true { starred.insert(title) }
                    }
                    return (ids, unread, starred)
                }
                let add = "account add fever \(server.endpoint.absoluteString) --user \(server.credentials.user)"
                for home in ["kitchen", "study"] {
                    let first = try run(home, [add, "account sync"])
                    #expect(first.status == 0, "\(first.err)")
                }
                let kitchen = try state("kitchen")
                let study = try state("study")
                #expect(kitchen.unread.count == 7)
                #expect(study.unread == kitchen.unread)

                // Offline on both: the kitchen reads alpha 1 and stars beta 1; the study reads
                // alpha 2 and alpha 1, stars and unstars alpha 3 (no change), marks beta 3 read then unread.
                let k = kitchen.ids
                let s = study.ids
                #expect(try run("kitchen", ["item mark \(k["alpha 1"]!) read", "item mark \(k["beta 1"]!) star"]).status == 0)
                #expect(
                    try run("study", [
                        "item mark \(s["alpha 2"]!) \(s["alpha 1"]!) read", "item mark \(s["alpha 3"]!) star",
                        "item mark \(s["alpha 3"]!) unstar", "item mark \(s["beta 3"]!) read",
                        "item mark \(s["beta 3"]!) unread",
                    ]).status == 0)
                for home in ["kitchen", "study", "kitchen"] { #expect(try run(home, ["account sync"]).status == 0) }
                let expectedUnread: Set<String> = ["alpha 3", "alpha 4", "beta 1", "beta 2", "beta 3"]
                #expect(try state("kitchen").unread == expectedUnread)
                #expect(try state("study").unread == expectedUnread)
                #expect(try state("kitchen").starred == ["beta 1"])
                #expect(try state("study").starred == ["beta 1"])
            }
        }
    }
}
