import Foundation
import Testing

@testable import REPL

/// Chores as a household lives with them: times, priorities, lists, steps, reminders, history
/// and the agenda. The clock is fixed at Sunday 2026-11-22 10:00 UTC.
@Suite("household: times, priorities, lists, steps, history, agenda")
struct HouseholdCommandTests {
    /// What was printed, line by line.
    func lines(_ out: [String]) -> [String] { out.joined(separator: "\n").split(separator: "\n").map(String.init) }

    @Test("within a day: chores of the whole day first, then by time, then high priority before low")
    func orderWithinADay() async throws {
        let app = try await TestApp()
        for line in [
            "task add Late --due 2026-11-23T18:00", "task add Low --due 2026-11-23 --priority low",
            "task add High --due 2026-11-23 --priority high", "task add Early --due 2026-11-23T07:15",
            "task add Medium --due 2026-11-23 --priority m", "task add Plain --due 2026-11-23",
            "task add Tomorrow --due 2026-11-24 --priority high",
        ] {
            #expect(await app.run([line]).status == 0, "\(line)")
        }
        let names = try await app.json("task list")["tasks"] as? [[String: Any]] ?? []
        #expect(
            names.compactMap { $0["name"] as? String } == [
                "High", "Medium", "Low", "Plain", "Early", "Late", "Tomorrow",
            ])
        let table = await app.run(["task list"]).out
        #expect(table.first?.contains("PRI") == true, "\(table)")
        #expect(table.contains { $0.contains("2026-11-23 07:15") && $0.contains("Early") }, "\(table)")
        #expect(names.first?["priority"] as? String == "high")
    }

    @Test("priorities are checked and cleared with none; an edit without a change is refused")
    func priorityChecks() async throws {
        let app = try await TestApp()
        let refused = await app.run(["task add Bins --priority urgent"])
        #expect(
            refused.status == 1 && refused.err.joined().contains("\"urgent\" is not a priority: high, medium or low"))
        #expect(await app.run(["task add Bins --priority HIGH"]).out == [#"added task #1 "Bins", high priority"#])
        #expect(await app.run(["task edit 1 --priority none"]).out == [#"changed task #1 "Bins""#])
        #expect(try await app.json("task list")["tasks"].map { "\($0)" }?.contains("priority = \"<null>\"") != nil)
    }

    @Test("lists: --list puts a chore on one (case joins), task lists counts them, task list --list shows one")
    func lists() async throws {
        let app = try await TestApp()
        #expect(await app.run(["task add Milk --list Groceries"]).out == [#"added task #1 "Milk", on Groceries"#])
        #expect(await app.run(["task add Eggs --list groceries"]).out == [#"added task #2 "Eggs", on Groceries"#])
        #expect(await app.run(["task add Mow --list garden", "task add Bins"]).status == 0)
        #expect(await app.run(["task done 2"]).status == 0)
        #expect(
            lines(await app.run(["task lists"]).out) == [
                "LIST       OPEN  ALL", "(default)     1    1", "garden        1    1", "Groceries     1    2",
            ])
        // --list alone is task lists; with a filter it is refused.
        #expect(lines(await app.run(["task list --list"]).out) == lines(await app.run(["task lists"]).out))
        let mixed = await app.run(["task list --list --today"])
        #expect(mixed.status == 1 && mixed.err.joined().contains("--list alone lists the lists"), "\(mixed)")
        let groceries = await app.run(["task list --list GROCERIES"]).out.joined(separator: "\n")
        #expect(groceries.contains("Milk") && !groceries.contains("Mow") && !groceries.contains("Bins"))
        let plain = await app.run(["task list --list \"\""]).out.joined(separator: "\n")
        #expect(plain.contains("Bins") && !plain.contains("Milk"), "\(plain)")
        let all = await app.run(["task list"]).out.joined(separator: "\n")
        #expect(all.contains("LIST"), "a LIST column where several lists appear: \(all)")
        #expect(lines(await app.run(["task edit 1 --list none", "task lists"]).out).contains("(default)     2    2"))
        let blank = await app.run(["task add X --list \"  \""])
        #expect(blank.status == 1 && blank.err.joined().contains("list: must not be empty"), "\(blank)")
    }

    @Test("steps: --under shows a chore under its parent; loops and unknown parents are refused")
    func steps() async throws {
        let app = try await TestApp()
        #expect(await app.run(["task add Party", "task add Zebra cake --under 1", "task add Apples"]).status == 0)
        #expect(await app.run(["task add Balloons --under 1"]).out == [#"added task #4 "Balloons", a step of #1"#])
        let rows = lines(await app.run(["task list"]).out).filter { !$0.hasPrefix("ID") }
        #expect(rows.map { $0.trimmingCharacters(in: .whitespaces).prefix(1) } == ["3", "1", "4", "2"], "\(rows)")
        #expect(rows[2].contains("↳ Balloons") && rows[3].contains("↳ Zebra cake"), "\(rows)")
        let loop = await app.run(["task edit 1 --under 2"])
        #expect(loop.status == 1 && loop.err.joined().contains("task #2 is a step of this chore already"), "\(loop)")
        let itself = await app.run(["task edit 1 --under 1"])
        #expect(itself.status == 1 && itself.err.joined().contains("a chore cannot be a step of itself"))
        let missing = await app.run(["task add X --under 99"])
        #expect(missing.status == 1 && missing.err.joined().contains("there is no task #99"), "\(missing)")
        // Removing the parent keeps its steps, as chores of their own.
        #expect(await app.run(["task remove 1"]).status == 0)
        let after = try await app.json("task list")["tasks"] as? [[String: Any]] ?? []
        #expect(after.count == 3 && after.allSatisfy { $0["parent_id"] is NSNull })
        // Undoing the removal makes them its steps again.
        #expect(await app.run(["task undo"]).status == 0)
        let restored = try await app.json("task list")["tasks"] as? [[String: Any]] ?? []
        let parents = Dictionary(
            uniqueKeysWithValues: restored.map { ($0["id"] as? Int ?? 0, $0["parent_id"] as? Int) })
        #expect(parents == [1: nil, 2: 1, 3: nil, 4: 1], "\(restored)")
    }

    @Test("reminders: read as minutes before the due time, need a due date, shown in list and agenda")
    func reminders() async throws {
        let app = try await TestApp()
        #expect(
            await app.run(["task add Dentist --due 2026-11-24T09:30 --remind 1d,30m,1h30m"]).out == [
                #"added task #1 "Dentist", due 2026-11-24 09:30, reminders 30m, 1h30m, 1d before"#
            ])
        let task = try #require((try await app.json("task list")["tasks"] as? [[String: Any]])?.first)
        #expect(task["reminders"] as? [Int] == [30, 90, 1440])
        let agenda = await app.run(["task agenda"]).out.joined(separator: "\n")
        #expect(agenda.contains("Tuesday 24 November") && agenda.contains("09:30  Dentist"), "\(agenda)")
        #expect(agenda.contains("⏰ 09:30, 08:00, 09:00"), "\(agenda)")
        for (text, message) in [
            ("30", "needs a unit"), ("soon", "is not a time before the due time"), ("5y", "is not a time before"),
        ] {
            let refused = await app.run(["task add X --due today --remind \(text)"])
            #expect(refused.status == 1 && refused.err.joined().contains(message), "\(text): \(refused)")
        }
        let undated = await app.run(["task add X --remind 30m"])
        #expect(undated.status == 1 && undated.err.joined().contains("a reminder comes before the due time"))
        let timeless = await app.run(["task edit 1 --due none"])
        #expect(timeless.status == 1 && timeless.err.joined().contains("a reminder comes before the due time"))
        #expect(await app.run(["task edit 1 --remind none --due none"]).status == 0)
    }

    @Test("history: each completion with its time and this home's device-name, newest first; --done lists them all")
    func history() async throws {
        let app = try await TestApp()
        #expect(await app.run(["set device-name Kitchen", "task add Bins --every week --due 2026-11-20"]).status == 0)
        #expect(await app.run(["task done 1", "set device-name Hall", "task done 1"]).status == 0)
        #expect(await app.run(["task add Post --due today", "task done 2"]).status == 0)
        let history = lines(await app.run(["task history 1"]).out)
        #expect(history.first == #"task #1 "Bins", due 2026-12-04, every week"#, "\(history)")
        #expect(
            Array(history.dropFirst()) == [
                "DONE AT           WAS DUE     BY", "2026-11-22 10:00  2026-11-27  Hall",
                "2026-11-22 10:00  2026-11-20  Kitchen",
            ])
        let done = try await app.json("task list --done")["tasks"] as? [[String: Any]] ?? []
        #expect(done.compactMap { $0["device"] as? String } == ["Hall", "Hall", "Kitchen"], "\(done)")
        #expect(done.compactMap { $0["id"] as? Int } == [2, 1, 1])
        // Each row's chore carries its last completion, as every other list gives it.
        #expect(done.allSatisfy { ($0["last_done"] as? String)?.hasPrefix("2026-11-22T10:00") == true }, "\(done)")
        let open = await app.run(["task list"]).out.joined(separator: "\n")
        #expect(open.contains("LAST DONE") && open.contains("2026-11-22 10:00"), "\(open)")
        let json = try await app.json("task history 1")
        #expect((json["history"] as? [[String: Any]])?.first?["device"] as? String == "Hall")
        let nameless = await app.run(["set device-name \" \""])
        #expect(nameless.status == 1)
    }

    @Test("agenda: overdue first, then each day with its chores, a recurring one on each day it comes back")
    func agenda() async throws {
        let app = try await TestApp()
        for line in [
            "task add Plants --every 3 days --due 2026-11-22", "task add Taxes --due 2026-11-01",
            "task add Party --due 2026-11-25T19:00 --priority high", "task add Later --due 2026-12-20",
        ] {
            #expect(await app.run([line]).status == 0, "\(line)")
        }
        let agenda = lines(await app.run(["task agenda"]).out)
        #expect(
            agenda == [
                "Overdue", "  #2  2026-11-01  Taxes", "Today, Sunday 22 November", "  #1  Plants",
                "Wednesday 25 November", "  #1  Plants", "  #3  19:00  Party  (high)", "Saturday 28 November",
                "  #1  Plants",
            ], "\(agenda)")
        let json = try await app.json("task agenda --days 2")
        #expect((json["days"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["2026-11-22"])
        #expect(await app.run(["task agenda --days 0"]).status == 1)
    }
}
