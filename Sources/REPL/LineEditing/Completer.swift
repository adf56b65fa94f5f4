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
    /// An id with the title shown beside it when several ids match.
    private struct Titled {
        var id: String
        var title: String
    }

    private struct Ids {
        var feeds: [Titled] = []
        var items: [Titled] = []
        var tasks: [Titled] = []
        var tags: [String] = []
        var views: [String] = []
        var lists: [String] = []
        var stale = true
        var dataVersion: Int?
    }

    private let feeds: FeedService?
    private let tasks: TaskService?
    private let dataVersion: (@Sendable () async -> Int?)?
    private let configKeys: @Sendable () -> [String]
    private let ids = Mutex(Ids())
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    /// - Parameter dataVersion: a number that changes whenever anyone commits, this process as
    ///   soon as its write returns, another through the database's `PRAGMA data_version`
    ///   (`LocalStore.dataVersion()`).
    /// - Parameter configKeys: the configuration's keys (`config get`).
    init(
        feeds: FeedService?, tasks: TaskService?, dataVersion: (@Sendable () async -> Int?)? = nil,
        configKeys: @escaping @Sendable () -> [String] = { [] }
    ) {
        self.feeds = feeds
        self.tasks = tasks
        self.dataVersion = dataVersion
        self.configKeys = configKeys
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
            loaded.feeds = ((try? await feeds.subscriptions()) ?? []).compactMap { feed in
                feed.id.map { Titled(id: String($0), title: feed.title) }
            }
            // The newest 100, offered in numeric order as the lists number them.
            loaded.items = ((try? await feeds.articles(matching: ArticleQuery(), limit: 100)) ?? [])
                .sorted { $0.id < $1.id }.map { Titled(id: String($0.id), title: $0.article.title ?? "") }
            loaded.tags = ((try? await feeds.tagSummaries()) ?? []).map(\.tag)
            loaded.views = ViewCommands.builtIn.map(\.name) + ((try? await feeds.savedViews()) ?? []).map(\.name)
        }
        if let tasks {
            let all: [HouseholdTask] = (try? await tasks.list(.all)) ?? []
            let numbered: [(id: Int64, title: String)] = all.compactMap { task in task.id.map { ($0, task.name) } }
            loaded.tasks = numbered.sorted { $0.id < $1.id }.map { Titled(id: String($0.id), title: $0.title) }
            loaded.lists = ((try? await tasks.lists()) ?? []).compactMap(\.name)
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
    /// means "complete a file path". What a position takes comes from the command's declaration:
    /// its sub-commands, its `--options`, the kind of the argument or option value being typed.
    func candidates(before: [String], prefix: String) -> [String]? {
        let words = before.map { $0.lowercased() }
        guard !words.isEmpty else { return Self.matching(CommandCatalog.words, prefix) }
        guard let (command, typed) = try? CommandCatalog.resolve(words) else {
            // A group's sub-command being typed (`feed re`), or nothing known.
            guard words.count == 1 else { return [] }
            return Self.matching(CommandCatalog.subcommands(of: words[0]), prefix)
        }
        if typed.isEmpty, !CommandCatalog.children(of: command).isEmpty, !prefix.hasPrefix("-") {
            if command.isGroup || command.arguments.isEmpty {
                return Self.matching(CommandCatalog.subcommands(of: command.name), prefix)
            }
        }
        if prefix.hasPrefix("-") { return Self.matching(command.options.map { "--" + $0.name }, prefix) }
        guard let kind = Self.kind(of: typed, in: command) else { return [] }
        let current = ids.withLock { $0 }
        switch kind {
        case .path: return nil
        case .feedID: return Self.matching(current.feeds.map(\.id), prefix)
        case .itemID: return Self.matching(current.items.map(\.id), prefix)
        case .taskID: return Self.matching(current.tasks.map(\.id), prefix)
        case .configKey: return Self.matching(configKeys(), prefix)
        case .tag: return current.tags.filter { $0.hasPrefix(prefix) }.map(Self.escaped)
        case .setting: return Self.matching(Setting.all.map(\.key), prefix)
        case .choice(let words): return Self.matching(words, prefix)
        case .taskList:
            return current.lists.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }.map(Self.escaped)
        case .view:
            return current.views.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }.map(Self.escaped)
        case .commandName:
            let named = typed.joined(separator: " ")
            return Self.matching(
                named.isEmpty ? CommandCatalog.words : CommandCatalog.subcommands(of: named), prefix)
        case .text: return []
        }
    }

    /// The lines libedit lists for several matching ids: each id right-aligned (libedit sorts
    /// the lines as strings, so equal widths keep them in numeric order), two spaces, and its
    /// title made safe for the terminal and cut to fit `width` columns. `nil` where the word
    /// being typed is not an id, or for fewer than two matches (one is simply inserted).
    /// Each line is padded to the width, so libedit lists them one per line.
    func titledMatches(before: [String], matches: [String], width: Int) -> [String]? {
        guard matches.count > 1, let (command, typed) = try? CommandCatalog.resolve(before.map { $0.lowercased() })
        else { return nil }
        let current = ids.withLock { $0 }
        let pool: [Titled]
        switch Self.kind(of: typed, in: command) {
        case .feedID: pool = current.feeds
        case .itemID: pool = current.items
        case .taskID: pool = current.tasks
        default: return nil
        }
        let titles = Dictionary(pool.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        guard matches.allSatisfy({ titles[$0] != nil }) else { return nil }  // sub-command names
        let idWidth = matches.map(\.count).max() ?? 0
        // libedit adds a space after each entry and wraps a line that fills the terminal.
        let titleWidth = max(0, width - idWidth - 2 - 2)
        return matches.map { id in
            let title = DisplayWidth.fit(TerminalText.sanitized(titles[id] ?? ""), width: titleWidth)
            return String(repeating: " ", count: idWidth - id.count) + id + "  "
                + DisplayWidth.pad(title, to: titleWidth)
        }
    }

    /// What the next word after `typed` is: an option's value, or the positional argument at
    /// its place; `nil` past the last one.
    private static func kind(of typed: [String], in command: Command) -> Command.ValueKind? {
        var positional = 0
        var index = 0
        while index < typed.count {
            let word = typed[index]
            index += 1
            guard word.hasPrefix("--"), let option = command.options.first(where: { "--" + $0.name == word }) else {
                positional += 1
                continue
            }
            switch option.kind {
            case .flag: continue
            case .value, .optionalValue:
                if index == typed.count { return option.value }
                index += 1
            case .countAndUnit:
                if index == typed.count { return .text }
                let plain = Double(typed[index]) != nil ? 2 : 1
                let length = ArgumentList.countAndUnitLength(typed[index...])
                index += length
                // The unit not typed yet, or an `on` clause that runs to the word being typed.
                if index == typed.count, length != plain { return .text }
            }
        }
        return command.argumentKind(at: positional)
    }

    private static func matching(_ pool: [String], _ prefix: String) -> [String] {
        pool.filter { $0.hasPrefix(prefix.lowercased()) }
    }
}
