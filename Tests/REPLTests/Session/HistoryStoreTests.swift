import Foundation
import Testing

@testable import REPL

@Suite("History store")
struct HistoryStoreTests {
    func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tidings-history-\(UUID().uuidString)")
    }

    @Test("blank lines and repeats of the previous line are not stored")
    func skipsBlankAndRepeats() {
        let history = HistoryStore(fileURL: nil)
        #expect(history.add("help"))
        #expect(!history.add("help"))
        #expect(!history.add("   "))
        #expect(history.add("quit"))
        #expect(history.add("help"))
        #expect(history.entries == ["help", "quit", "help"])
    }

    @Test("entries persist to the file and load in a new session")
    func persists() {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let first = HistoryStore(fileURL: file)
        first.add("help")
        first.add(#"task add "Take out the bins""#)
        #expect(HistoryStore(fileURL: file).entries == ["help", #"task add "Take out the bins""#])
    }

    @Test("a line holding a credential is not kept, in memory or on disk; ordinary lines are")
    func leavesOutCredentials() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let history = HistoryStore(fileURL: file)
        let secrets = [
            "task sync setup http://alice:SECRET@127.0.0.1:5232/alice/chores/",
            "feed add https://bob:hunter2@feeds.example/rss",
            "feed add bob:hunter2@feeds.example/rss",
            "task sync setup https://dav.example/c/ --user alice --password SECRET",
            "task add call TIDINGS_CALDAV_PASSWORD=SECRET",
            "feed add https://x.example/feed?token=abc123",
            "feed add https://x.example/feed?api_key=abc123",
            #"feed add "https://x.example/f" Authorization: Basic YWxpY2U6U0VDUkVU"#,
        ]
        for line in secrets { #expect(!history.add(line), "\(line)") }
        let ordinary = [
            "task sync setup https://alice@dav.example/alice/chores/", "feed add https://x.example/feed?page=2",
            "task add \"Call plumber\" --due 2026-11-27T09:30", "items --search \"bypass: the road\"",
            "feed add https://[::1]:8080/feed.xml",
        ]
        for line in ordinary { #expect(history.add(line), "\(line)") }
        #expect(history.entries == ordinary)
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(!saved.contains("SECRET") && !saved.contains("hunter2") && !saved.contains("abc123"))
    }

    @Test("a new history file is private to the user (0600) whatever the umask; an existing one keeps its mode")
    func privateFile() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let previous = umask(0o022)
        defer { umask(previous) }
        HistoryStore(fileURL: file).add("help")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test("the history is bounded, dropping the oldest entries")
    func bounded() {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let history = HistoryStore(fileURL: file, limit: 3)
        for index in 1...5 { history.add("line \(index)") }
        #expect(history.entries == ["line 3", "line 4", "line 5"])
        #expect(HistoryStore(fileURL: file, limit: 3).entries == ["line 3", "line 4", "line 5"])
        #expect(HistoryStore(fileURL: file, limit: 2).entries == ["line 4", "line 5"])
    }

    @Test("a missing file is an empty history")
    func missingFile() {
        #expect(HistoryStore(fileURL: temporaryFile()).entries.isEmpty)
    }
}

@Suite("Home location")
struct HomeLocationTests {
    @Test("--home wins over the environment")
    func flagWins() {
        let home = HomeLocation(
            home: "/tmp/a", database: nil, environment: ["TIDINGS_HOME": "/tmp/b", "XDG_DATA_HOME": "/tmp/c"])
        #expect(home.directory.path == "/tmp/a")
        #expect(home.databaseURL.path == "/tmp/a/tidings.sqlite")
        #expect(home.historyURL.path == "/tmp/a/history")
    }

    @Test("then $TIDINGS_HOME, then $XDG_DATA_HOME/tidings, then ~/.local/share/tidings")
    func precedence() {
        #expect(
            HomeLocation(home: nil, database: nil, environment: ["TIDINGS_HOME": "/tmp/b", "XDG_DATA_HOME": "/tmp/c"])
                .directory.path == "/tmp/b")
        #expect(
            HomeLocation(home: nil, database: nil, environment: ["XDG_DATA_HOME": "/tmp/c"]).directory.path
                == "/tmp/c/tidings")
        #expect(
            HomeLocation(home: nil, database: nil, environment: [:], userHome: "/home/jo").directory.path
                == "/home/jo/.local/share/tidings")
        #expect(
            HomeLocation(home: "", database: nil, environment: ["TIDINGS_HOME": ""], userHome: "/home/jo").directory
                .path == "/home/jo/.local/share/tidings")
        // `~` is $HOME when it is set.
        #expect(
            HomeLocation(home: nil, database: nil, environment: ["HOME": "/home/ann"]).directory.path
                == "/home/ann/.local/share/tidings")
    }

    @Test("a leading ~ is $HOME in --home, --db and $TIDINGS_HOME alike; a relative $XDG_DATA_HOME is ignored")
    func tildeAndRelativeXDG() {
        let environment = ["HOME": "/home/ann", "TIDINGS_HOME": "~/x"]
        #expect(HomeLocation(home: nil, database: nil, environment: environment).directory.path == "/home/ann/x")
        #expect(
            HomeLocation(home: "~/y", database: "~/d.sqlite", environment: environment).directory.path == "/home/ann/y")
        #expect(
            HomeLocation(home: "~/y", database: "~/d.sqlite", environment: environment).databaseURL.path
                == "/home/ann/d.sqlite")
        #expect(
            HomeLocation(home: nil, database: nil, environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "data"])
                .directory.path == "/home/ann/.local/share/tidings")
    }

    @Test("--db puts the database elsewhere")
    func databaseFlag() {
        #expect(
            HomeLocation(home: "/tmp/a", database: "/tmp/x.sqlite", environment: [:]).databaseURL.path
                == "/tmp/x.sqlite")
    }
}
