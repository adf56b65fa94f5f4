import Foundation
import Testing

@testable import REPL

/// Each command is one declaration: these check that dispatch, the checks of its words, help,
/// completion and the version gate follow it, and that its usage line says what it declares.
@Suite("command declarations")
struct CommandDeclarationTests {
    /// The `--options` a usage line shows.
    static func options(in usage: String) -> Set<String> {
        let pattern = /--([a-z][a-z-]*)/
        return Set(usage.matches(of: pattern).map { String($0.output.1) })
    }

    /// The `<arguments>` and `[arguments]` a usage line shows for the command itself (before any ", or" form).
    static func arguments(in usage: String) -> [String] {
        // An option's value that may be left out (`--list [NAME]`) is no positional argument.
        let own = usage.components(separatedBy: ", or ")[0].components(separatedBy: " (or ")[0]
            .replacingOccurrences(of: #"(--[a-z-]+) \[([A-Z]+)\]"#, with: "$1 $2", options: .regularExpression)
        return own.matches(of: /<([^>]+)>|\[([A-Za-z][A-Za-z-]*)(?:\.\.\.)?\]/).map {
            String($0.output.1 ?? $0.output.2 ?? "").replacingOccurrences(of: "...", with: "")
        }
    }

    @Test("every usage line shows exactly the options and the arguments its command declares")
    func usageMatchesDeclaration() {
        for command in CommandCatalog.all where !command.isGroup {
            #expect(
                Self.options(in: command.usage) == Set(command.options.map(\.name)), "\(command.name): \(command.usage)"
            )
            #expect(
                Self.arguments(in: command.usage) == command.arguments.map(\.name), "\(command.name): \(command.usage)")
            #expect(command.usage.hasPrefix(command.name), "\(command.name): \(command.usage)")
        }
    }

    @Test("names and aliases are unique, and every group has sub-commands")
    func namesUnique() {
        let names = CommandCatalog.all.flatMap { $0.names + $0.aliases }
        #expect(names.count == Set(names).count)
        for group in CommandCatalog.all where group.isGroup {
            #expect(!CommandCatalog.children(of: group).isEmpty, "\(group.name)")
        }
    }

    @Test(
        "a line finds the longest name it starts with, case ignored, aliases included; item ID is item show ID",
        arguments: [
            (["feed", "add", "x"], "feed add", ["x"]), (["FEED", "LS"], "feed list", []),
            (["task", "sync"], "task sync", []), (["task", "sync", "--x"], "task sync", ["--x"]),
            (["task", "sync", "SETUP", "u"], "task sync setup", ["u"]), (["read", "3"], "item show", ["3"]),
            (["item", "read", "3"], "item show", ["3"]),
            (["item", "#4", "--no-pager"], "item show", ["#4", "--no-pager"]),
            (["task", "complete", "1"], "task done", ["1"]), (["help", "feed", "add"], "help", ["feed", "add"]),
            (["exit"], "quit", []),
        ])
    func resolves(words: [String], name: String, rest: [String]) throws {
        let (command, remaining) = try CommandCatalog.resolve(words)
        #expect(command.name == name)
        #expect(remaining == rest)
    }

    @Test(
        "a group without a sub-command, or with an unknown one, is a usage error naming the nearest",
        arguments: [
            (
                ["feed"],
                #"feed needs a sub-command: add, list, refresh, remove, rename, tag, untag, tags, keep, purge, import, export, discover; try "help feed""#
            ),
            (["item", "shwo", "1"], #"item has no sub-command "shwo" (did you mean "item show"?)"#),
            (["task", "sync", "statsu"], #"task sync has no sub-command "statsu" (did you mean "task sync status"?)"#),
            (["config", "--all"], #"config has no sub-command "--all""#),
            (["nonsense"], #"unknown command "nonsense"; type "help" for the list"#),
        ])
    func groupErrors(words: [String], message: String) {
        do {
            let (command, _) = try CommandCatalog.resolve(words)
            Issue.record("\(words) found \(command.name)")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("the declared arguments are counted: missing, unexpected and blank words name the usage")
    func counts() async throws {
        let app = try await TestApp()
        #expect(await app.run(["feed remove"]).err == ["error: missing <ID>; usage: feed remove <ID>"])
        #expect(await app.run(["feed remove 1 2"]).err == [#"error: unexpected "2"; usage: feed remove <ID>"#])
        #expect(await app.run(["feed rename 1 ' '"]).err == ["error: missing <title>; usage: feed rename <ID> <title>"])
        #expect(await app.run(["task done x"]).err == [#"error: a task id must be an id like 3 (got "x")"#])
        #expect(await app.run(["quit now"]).err == [#"error: unexpected "now"; usage: quit | exit | Ctrl-D"#])
        #expect(await app.run(["history --all"]).err == [#"error: history has no option "--all""#])
        #expect(await app.run(["items --unred"]).err.first?.contains(#"(did you mean "--unread"?)"#) == true)
    }

    @Test("the version gate refuses exactly the commands that declare they need the current version")
    func gateFollowsDeclarations() async throws {
        let app = try await TestApp()
        app.server.serve("https://config.test/config.json", #"{"minVersion":"2.0"}"#)
        #expect(await app.run(["config refresh"]).status == 0)
        let gated = CommandCatalog.all.filter { !$0.isGroup && $0.requires == .currentVersion }
        // What is gated is stated here too: a declaration that drops its requirement fails.
        #expect(
            Set(gated.map(\.group)) == ["feed", "items", "item", "task", "more", "next", "prev", "view", "rule", "account"])
        for command in CommandCatalog.all where !command.isGroup {
            let status = await app.run([command.name + " --no-such-option"]).status
            #expect((status == 3) == (command.requires == .currentVersion), "\(command.name): \(status)")
        }
    }

    @Test("completion offers each command's options, option values and arguments by their declared kinds")
    func completion() async throws {
        let app = try await TestApp()
        app.server.serve("https://feeds.test/a.xml", sampleRSS(title: "A", count: 2))
        #expect(await app.run(["feed add https://feeds.test/a.xml", "task add Dust"]).status == 0)
        let completer = Completer(
            feeds: app.environment.feeds, tasks: app.environment.tasks, configKeys: { ["refresh.max", "theme"] })
        await completer.reload()
        #expect(completer.candidates(before: ["items"], prefix: "--s") == ["--starred", "--search", "--since"])
        #expect(completer.candidates(before: ["items", "--unread", "--feed"], prefix: "") == ["1"])
        #expect(completer.candidates(before: ["items", "--search"], prefix: "") == [])
        #expect(completer.candidates(before: ["task", "sync"], prefix: "") == ["status", "setup", "stop"])
        #expect(completer.candidates(before: ["help", "task"], prefix: "s") == ["sync"])
        #expect(completer.candidates(before: ["help", "task", "sync"], prefix: "") == ["status", "setup", "stop"])
        #expect(completer.candidates(before: ["config", "get"], prefix: "re") == ["refresh.max"])
        #expect(completer.candidates(before: ["task", "edit", "--every", "2", "weeks"], prefix: "") == ["1"])
        #expect(completer.candidates(before: ["task", "edit", "--every", "week"], prefix: "") == ["1"])
        #expect(completer.candidates(before: ["read"], prefix: "") == ["1", "2"])
        #expect(completer.candidates(before: ["item", "mark", "1"], prefix: "") == ["1", "2"])
        #expect(completer.candidates(before: ["feed", "export"], prefix: "") == nil)
        // Ids in numeric order, as the lists number them (not 1, 10, 11, 2, …).
        app.server.serve("https://feeds.test/b.xml", sampleRSS(title: "B", count: 10, prefix: "B"))
        #expect(await app.run(["feed add https://feeds.test/b.xml"]).status == 0)
        let reloaded = Completer(feeds: app.environment.feeds, tasks: app.environment.tasks)
        await reloaded.reload()
        #expect(reloaded.candidates(before: ["read"], prefix: "") == (1...12).map(String.init))
    }
}
