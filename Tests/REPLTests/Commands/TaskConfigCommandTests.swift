import Foundation
import Testing

@testable import REPL

@Suite("task and config commands")
struct TaskConfigCommandTests {
    @Test("--due reads month and year offsets back and forward from today")
    func dueOffsets() async throws {
        let app = try await TestApp()
        #expect(await app.run(["task add Passport --due -1m"]).out == [#"added task #1 "Passport", due 2026-10-22"#])
        #expect(await app.run(["task add Boiler --due -2y"]).out == [#"added task #2 "Boiler", due 2024-11-22"#])
        #expect(await app.run(["task add Tyres --due +1m"]).out == [#"added task #3 "Tyres", due 2026-12-22"#])
        #expect(await app.run(["task add Insurance --due +1y"]).out == [#"added task #4 "Insurance", due 2027-11-22"#])
    }

    @Test("a due date with a time keeps the time; a new due date without one makes a chore of the whole day")
    func dueWithTime() async throws {
        let app = try await TestApp()
        #expect(
            await app.run(["task add \"Call plumber\" --due 2026-11-27T09:30"]).out == [
                #"added task #1 "Call plumber", due 2026-11-27 09:30"#
            ])
        let listed = await app.run(["task list"]).out.joined()
        #expect(listed.contains(" 1  2026-11-27 09:30") && listed.contains("Call plumber"), "\(listed)")
        let json = await app.run(["task list"], json: true).out.joined()
        #expect(json.contains(#""due":"2026-11-27""#) && json.contains(#""time":"09:30""#), "\(json)")
        #expect(await app.run(["task edit 1 --due 2026-11-28T10:00"]).out.joined().contains("due 2026-11-28 10:00"))
        #expect(
            await app.run(["task edit 1 --due 2026-11-29"]).out == [#"changed task #1 "Call plumber", due 2026-11-29"#])
        let refused = await app.run(["task add Plumber --due 2026-11-27t9:30:15"])
        #expect(refused.status == 1 && refused.err.joined().contains("the time must be HH:MM"), "\(refused)")
    }

    @Test("removing a recurring chore's due date is refused in words; with --once it becomes an undated one-off")
    func dueNoneOnRecurring() async throws {
        let app = try await TestApp()
        #expect(await app.run(["task add Gutters --due 2026-12-01 --every 1 month"]).status == 0)
        let refused = await app.run(["task edit 1 --due none"])
        #expect(refused.status == 1)
        #expect(refused.err.joined().contains("cannot be removed; make it a one-off first (--once)"), "\(refused.err)")
        #expect(await app.run(["task list"]).out.joined().contains("2026-12-01  every month"), "unchanged")
        let once = await app.run(["task edit 1 --due none --once"])
        #expect(once.out == [#"changed task #1 "Gutters""#], "\(once)")
        #expect(await app.run(["task add Bins --every 1 week"]).status == 0)
        #expect(await app.run(["task edit 2 --due none --every 2 weeks"]).status == 1)
    }

    @Test("task add, list, done, edit, undo, remove: human lines and SPEC's JSON")
    func taskLifecycle() async throws {
        let app = try await TestApp()
        #expect(
            await app.run([#"task add "Take out the bins" --every 1 week"#]).out == [
                #"added task #1 "Take out the bins", due 2026-11-22, every week"#
            ])
        #expect(try await app.json("task add Vacuum --due 2026-11-20 --note 'upstairs too'")["id"] as? Int == 2)
        #expect(try await app.json("task add Someday")["id"] as? Int == 3)
        let list = try await app.json("task list")
        let tasks = try #require(list["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["name"] as? String } == ["Vacuum", "Take out the bins", "Someday"])
        let bins = tasks[1]
        #expect(bins["due"] as? String == "2026-11-22" && bins["done"] as? Bool == false)
        #expect((bins["every"] as? [String: Any])?["count"] as? Int == 1)
        #expect((bins["every"] as? [String: Any])?["unit"] as? String == "week")
        #expect(tasks[0]["note"] as? String == "upstairs too" && tasks[2]["due"] is NSNull)
        #expect((try await app.json("task list --overdue")["tasks"] as? [Any])?.count == 1)

        #expect(await app.run(["task done 1"]).out == [#"done: task #1 "Take out the bins", next due 2026-11-29"#])
        #expect(
            await app.run(["task undo"]).out == [
                #"undid complete of task #1 "Take out the bins": took back the completion"#
            ])
        #expect(await app.run(["task done 2"]).out == [#"done: task #2 "Vacuum""#])
        #expect((try await app.json("task list --done")["tasks"] as? [[String: Any]])?.first?["done"] as? Bool == true)
        #expect(
            await app.run(["task edit 3 --every 2 months --name 'Clean gutters'"]).out == [
                #"changed task #3 "Clean gutters", due 2026-11-22, every 2 months"#
            ])
        #expect(await app.run(["task remove 3"]).out == [#"removed task #3 "Clean gutters""#])
        #expect(await app.run(["task undo"]).status == 0)
        #expect(try await app.json("task list --all")["tasks"].map { ($0 as? [Any])?.count } == 3)
    }

    @Test("task errors name the field and the rule; unknown sub-commands and options suggest")
    func taskErrors() async throws {
        let app = try await TestApp()
        #expect(
            await app.run(["task add x --every 0 days"]).err == ["error: frequency: every 0 days is not a frequency"])
        #expect(await app.run(["task add '  '"]).err.first?.hasPrefix("error: missing <name>") == true)
        #expect(await app.run(["task done 7"]).err == ["error: there is no task #7"])
        #expect(await app.run(["task undo"]).err == ["error: nothing to undo"])
        #expect(await app.run(["task finish 1"]).err == [#"error: task has no sub-command "finish""#])
        #expect(
            await app.run(["task dnoe 1"]).err == [
                #"error: task has no sub-command "dnoe" (did you mean "task done"?)"#
            ])
        #expect(
            await app.run(["task add x --evry 2 weeks"]).err == [
                #"error: task add has no option "--evry" (did you mean "--every"?)"#
            ])
        // --every: a count needs a unit after it; a count that is not whole is named as such.
        #expect(
            await app.run(["task add x --every 1"]).err == ["error: --every 1 needs a unit: day, week, month or year"])
        #expect(
            await app.run(["task add x --every 2 --due today"]).err == [
                "error: --every 2 needs a unit: day, week, month or year"
            ])
        #expect(
            await app.run(["task add x --every 1.5 days"]).err == [
                #"error: frequency: "1.5" is not a whole number of days"#
            ])
        #expect(await app.run(["task add x --every week"]).out == [#"added task #1 "x", due 2026-11-22, every week"#])
        let json = await app.run(["task done 7"], json: true)
        #expect(json.out == [#"{"error":{"code":"not_found","message":"there is no task #7"}}"#])
    }

    @Test("task from-item links a read-later task to the article")
    func taskFromItem() async throws {
        let app = try await TestApp()
        app.server.serve("https://news.test/f", sampleRSS(title: "News", count: 1))
        _ = await app.run(["feed add https://news.test/f"])
        #expect(
            await app.run(["task from-item 1 --due tomorrow"]).out == [
                #"added task #1 "Read: Story 0", due 2026-11-23"#
            ])
        let task = try #require((try await app.json("task list")["tasks"] as? [[String: Any]])?.first)
        #expect(task["item_id"] as? Int == 1 && task["note"] as? String == "https://news.test/story/0")
    }

    @Test("config show, get and refresh: sources, changed keys and the 304 path")
    func config() async throws {
        let app = try await TestApp()
        let shown = try await app.json("config show")
        #expect(shown["min_version"] as? String == "1.0.0" && shown["update_required"] as? Bool == false)
        let values = try #require(shown["values"] as? [[String: Any]])
        #expect(
            values.contains { $0["key"] as? String == "maxConcurrentRefreshes" && $0["source"] as? String == "default" }
        )
        #expect(try await app.json("config get minVersion")["source"] as? String == "default")
        app.server.serve(
            "https://config.test/config.json", #"{"minVersion":"1.0.0","maxConcurrentRefreshes":4,"extra":{"a":1}}"#,
            headers: ["ETag": "\"c1\""])
        let refreshed = try await app.json("config refresh")
        #expect(refreshed["changed"] as? [String] == ["extra.a", "maxConcurrentRefreshes"])
        #expect(refreshed["not_modified"] as? Bool == false)
        let value = try await app.json("config get extra.a")
        #expect(value["value"] as? Int == 1 && value["source"] as? String == "remote")
        #expect(value["fetched_at"] as? String == "2026-11-22T10:00:00Z")
        #expect(try await app.json("config refresh")["not_modified"] as? Bool == true)
        #expect(await app.run(["config get nope"]).err == [#"error: no config key "nope""#])
        app.server.serve("https://config.test/config.json", "<html>oops</html>", headers: ["ETag": "\"c2\""])
        let failed = await app.run(["config refresh"])
        #expect(failed.status == 1 && failed.err.first?.hasPrefix("error: config refresh failed:") == true)
        #expect(try await app.json("config get maxConcurrentRefreshes")["value"] as? Int == 4)
    }

    @Test("a raised minVersion refuses feed, item and task commands with status 3; config still works")
    func versionGate() async throws {
        let app = try await TestApp()
        app.server.serve("https://config.test/config.json", #"{"minVersion":"2.0"}"#)
        let result = await app.run(["config refresh", "task list"])
        #expect(result.status == 3)
        #expect(
            result.err.last?.hasPrefix(
                "error: update required: this is Tidings 1.0.0 and the configuration requires 2.0") == true)
        for line in ["feed list", "items", "item show 1", "read 1", "task add x"] {
            #expect(await app.run([line]).status == 3)
        }
        #expect(await app.run(["config show", "help", "quit"]).status == 0)
        let (session, _) = app.session()
        #expect(session.updateBanner()?.contains("Update required") == true)
    }
}
