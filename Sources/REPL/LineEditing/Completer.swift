import Chores
import Feed
import Foundation
import Models
import Synchronization

/// What Tab completes, by position on the line: command words first, then sub-commands, then
/// feed, item or task ids where a command takes one, and file paths after `feed add`,
/// `feed import` and `feed export` (`candidates` returns `nil` there; see `paths(matching:)`).
///
/// The ids are loaded before a prompt (`reload()`), since libedit's completion callback is
/// synchronous; they are read again only after a commit has changed feeds, items or tasks.
final class Completer: Sendable {
    private struct Ids {
        var feeds: [String] = []
        var items: [String] = []
        var tasks: [String] = []
        var stale = true
        var dataVersion: Int?
    }

    private let feeds: FeedService?
    private let tasks: TaskService?
    private let dataVersion: (@Sendable () async -> Int?)?
    private let ids = Mutex(Ids())
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    /// - Parameter dataVersion: a number that changes whenever anyone commits, this process as
    ///   soon as its write returns, another through the database's `PRAGMA data_version`
    ///   (`LocalStore.dataVersion()`).
    init(feeds: FeedService?, tasks: TaskService?, dataVersion: (@Sendable () async -> Int?)? = nil) {
        self.feeds = feeds
        self.tasks = tasks
        self.dataVersion = dataVersion
        let feedChanges = feeds?.changes()
        let taskChanges = tasks?.changes()
        guard feedChanges != nil || taskChanges != nil else { return }
        watcher.withLock {
            $0 = Task { [weak self] in
                await withTaskGroup(of: Void.self) { group in
                    if let feedChanges {
                        group.addTask { for await _ in feedChanges { self?.ids.withLock { $0.stale = true } } }
                    }
                    if let taskChanges {
                        group.addTask { for await _ in taskChanges { self?.ids.withLock { $0.stale = true } } }
                    }
                }
            }
        }
    }

    deinit { watcher.withLock { $0?.cancel() } }

    /// Loads the feed ids, the newest 100 item ids and the task ids, unless nothing changed
    /// since the last load.
    func reload() async {
        // Another process (a cron `feed refresh`) commits without a change set reaching this
        // one: SQLite's data_version tells, for the price of one pragma.
        if let version = await dataVersion?(), ids.withLock({ $0.dataVersion != version }) {
            ids.withLock {
                $0.dataVersion = version
                $0.stale = true
            }
        }
        guard ids.withLock({ $0.stale }) else { return }
        ids.withLock { $0.stale = false }
        var loaded = Ids(stale: false)
        if let feeds {
            loaded.feeds = ((try? await feeds.subscriptions()) ?? []).compactMap { $0.id.map(String.init) }
            loaded.items = ((try? await feeds.articles(matching: ArticleQuery(), limit: 100)) ?? []).map {
                String($0.id)
            }
        }
        if let tasks {
            loaded.tasks = ((try? await tasks.list(.all)) ?? []).compactMap { $0.id.map(String.init) }
        }
        ids.withLock { current in
            loaded.stale = current.stale  // a commit during the load marks it stale again
            loaded.dataVersion = current.dataVersion
            current = loaded
        }
    }

    /// The files and directories `prefix` starts to name (`~` expanded), directories with a
    /// trailing `/`; hidden ones only when `prefix` names them. Spaces, quotes and backslashes
    /// in the names are escaped with a backslash, so the completed word reads back as one word.
    /// A name the output boundary would change (an escape sequence, a control, bidi or C1
    /// character) is left out: libedit shows and inserts candidates as they are, so such a name
    /// would drive the terminal, and it cannot be typed back anyway.
    static func paths(matching prefix: String) -> [String] {
        let unescaped = (try? CommandLineTokenizer.words(prefix).first) ?? prefix
        let typed = unescaped == "~" ? "~/" : unescaped
        let cut = typed.lastIndex(of: "/").map { typed.index(after: $0) } ?? typed.startIndex
        let typedDirectory = String(typed[..<cut])  // as typed: "", "feeds/", "~/feeds/", "/tmp/"
        let stem = String(typed[cut...])
        let directory = typedDirectory.isEmpty ? "." : (typedDirectory as NSString).expandingTildeInPath
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let shown = names.filter {
            $0.hasPrefix(stem) && (!$0.hasPrefix(".") || stem.hasPrefix(".")) && TerminalText.sanitized($0) == $0
        }
        return shown.sorted().map {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory + "/" + $0, isDirectory: &isDirectory)
            return escaped(typedDirectory + $0) + (exists && isDirectory.boolValue ? "/" : "")
        }
    }

    /// `path` with a backslash before each space, tab, quote and backslash.
    static func escaped(_ path: String) -> String {
        var output = ""
        for character in path {
            if character == " " || character == "\t" || character == "\"" || character == "'" || character == "\\" {
                output.append("\\")
            }
            output.append(character)
        }
        return output
    }

    /// The candidates for the word being typed (`prefix`), given the words before it; `nil`
    /// means "complete a file path".
    func candidates(before: [String], prefix: String) -> [String]? {
        let words = before.map { $0.lowercased() }
        let pool: [String]
        switch words.count {
        case 0:
            pool = CommandCatalog.words
        case 1 where words[0] == "help":
            pool = CommandCatalog.words
        case 1 where !CommandCatalog.subcommands(of: words[0]).isEmpty:
            pool = CommandCatalog.subcommands(of: words[0])
        default:
            let (command, sub) = (words[0], words.count > 1 ? words[1] : "")
            let current = ids.withLock { $0 }
            switch (command, sub) {
            case ("feed", "add"), ("feed", "import"), ("feed", "export"): return nil
            case ("help", _): pool = words.count == 2 ? CommandCatalog.subcommands(of: sub) : []
            case ("feed", "refresh"):
                pool = current.feeds
            case ("feed", "remove"), ("feed", "rename"):
                pool = words.count == 2 ? current.feeds : []
            case ("items", _) where words.last == "--feed", ("item", "mark") where words.last == "--feed":
                pool = current.feeds
            case ("item", "show"), ("item", "read"), ("item", "mark"), ("read", _), ("task", "from-item"):
                pool = current.items
            case ("task", "done"), ("task", "edit"), ("task", "remove"):
                pool = words.count == 2 ? current.tasks : []
            default:
                pool = []
            }
        }
        return pool.filter { $0.hasPrefix(prefix.lowercased()) }
    }
}
