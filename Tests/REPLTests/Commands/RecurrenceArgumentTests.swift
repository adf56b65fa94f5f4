import Chores
import Foundation
import Models
import Testing

@testable import REPL

/// `--every` as users type it: a count and a unit, `weekday`, and `on` days.
@Suite("--every recurrences")
struct RecurrenceArgumentTests {
    @Test(
        "counts, units, weekday and on-clauses read into the rule and read back in words",
        arguments: [
            // (typed, RRULE, how task list says it)
            ("day", "FREQ=DAILY;INTERVAL=1", "every day"),
            ("2 weeks", "FREQ=WEEKLY;INTERVAL=2", "every 2 weeks"),
            ("weekday", "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR", "every weekday"),
            ("Weekdays", "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR", "every weekday"),
            ("1 weekday", "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR", "every weekday"),
            ("2 weeks on mon,thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "every 2 weeks on Mon, Thu"),
            ("2 weeks on mon, thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "every 2 weeks on Mon, Thu"),
            ("2 weeks on monday and thursday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "every 2 weeks on Mon, Thu"),
            ("2 Weeks On Thursdays & Mondays", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "every 2 weeks on Mon, Thu"),
            ("week on sat", "FREQ=WEEKLY;INTERVAL=1;BYDAY=SA", "every week on Sat"),
            ("week on weekends", "FREQ=WEEKLY;INTERVAL=1;BYDAY=SA,SU", "every week on Sat, Sun"),
            ("2 weeks on weekdays", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR", "every 2 weeks on weekdays"),
            ("month on the last friday", "FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR", "every month on the last Friday"),
            ("month on the 15th", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15", "every month on the 15th"),
            ("month on the last day", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1", "every month on the last day"),
            ("month on the 2nd monday", "FREQ=MONTHLY;INTERVAL=1;BYDAY=2MO", "every month on the 2nd Monday"),
            ("month on the second Monday", "FREQ=MONTHLY;INTERVAL=1;BYDAY=2MO", "every month on the 2nd Monday"),
            (
                "2 months on the 1st and 15th", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1,15",
                "every 2 months on the 1st and the 15th"
            ),
            (
                "month on the 2nd to last day", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-2",
                "every month on the 2nd to last day"
            ),
            (
                "month on the 2nd last friday", "FREQ=MONTHLY;INTERVAL=1;BYDAY=-2FR",
                "every month on the 2nd to last Friday"
            ),
            (
                "month on the last weekday", "FREQ=MONTHLY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
                "every month on the last weekday"
            ),
            (
                "month on the first weekday", "FREQ=MONTHLY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1",
                "every month on the 1st weekday"
            ),
            (
                "month on the first monday and the last friday", "FREQ=MONTHLY;INTERVAL=1;BYDAY=1MO,-1FR",
                "every month on the 1st Monday and the last Friday"
            ),
            (
                "month on the last friday of the month", "FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR",
                "every month on the last Friday"
            ),
            ("month on 15", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15", "every month on the 15th"),
            (
                "month on the 15th and the last day", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15,-1",
                "every month on the 15th and the last day"
            ),
            ("month on the 31st", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=31", "every month on the 31st"),
            (
                "year on the last sunday", "FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU",
                "every year on the last Sunday of its month"
            ),
        ])
    func accepted(typed: String, rrule: String, words: String) throws {
        let frequency = try RecurrenceArgument.parse(typed)
        #expect(frequency.rruleValue == rrule)
        #expect(frequency.description == words)
    }

    @Test(
        "what cannot be a recurrence is refused, naming what is wrong and what is accepted",
        arguments: [
            (
                "2 weeks on funday",
                #""funday" is not a weekday (mon, tue, wed, thu, fri, sat or sun); did you mean "sunday"?"#
            ),
            ("month on the 32nd", "months have at most 31 days, so there is no 32nd day"),
            (
                "week on the last friday",
                #"numbered days like "the last friday" or "the 15th" need --every month or --every year; "#
                    + "a week has each weekday once"
            ),
            (
                "2 weekdays",
                #""weekdays" takes no count other than 1 (it is Monday to Friday, every week); "#
                    + "for every 2 weeks say --every 2 weeks on weekdays"
            ),
            (
                "weekday on mon",
                #""weekday" is Monday to Friday and takes no "on"; for other days say --every week on mon, thu"#
            ),
            (
                "day on mon",
                #"a daily task is due every day and takes no "on"; for some days of the week say --every week on mon, thu"#
            ),
            ("week on", #""on" needs the days, like --every week on mon, thu or --every month on the 15th"#),
            (
                "month on friday",
                "say which Friday: the 1st friday, the 2nd … or the last friday; for every one say --every week on friday"
            ),
            ("month on the last", "the last what? say the last day, friday or weekday"),
            ("month on the 6th monday", "a month has at most 5 Mondays, so there is no 6th monday"),
            ("month on the 0th", "there is no 0th: counting starts at the 1st"),
            (
                "month on the fifteenth",
                #""fifteenth" is not a day of the month or a numbered weekday: "#
                    + "say the 15th, the last day, the 2nd monday or the last weekday"
            ),
            (
                "month on the 15th and the last friday",
                "one rule cannot mix days of the month (the 15th) with weekdays (the 2nd monday); add two tasks"
            ),
            (
                "month on the 2nd monday and the last weekday",
                "one rule cannot mix named weekdays (the 2nd monday) with the first or last weekday; add two tasks"
            ),
            ("on mon", "give a count and a unit, like --every 2 weeks, or --every week on mon, thu"),
        ])
    func refused(typed: String, reason: String) {
        #expect(throws: CommandError.usage("--every \(typed): \(reason)")) { try RecurrenceArgument.parse(typed) }
    }

    @Test("the count and unit follow the task rules, with or without on, and say so as before")
    func taskRules() {
        #expect(throws: TaskError.invalid(field: "frequency", rule: "every 0 days is not a frequency")) {
            try RecurrenceArgument.parse("0 days")
        }
        #expect(throws: TaskError.invalid(field: "frequency", rule: "every 1000 weeks is too far apart (at most 999)"))
        {
            try RecurrenceArgument.parse("1000 weeks on mon")
        }
        #expect(
            throws: TaskError.invalid(
                field: "frequency", rule: "\"fortnights\" is not a unit (day, week, month or year)")
        ) { try RecurrenceArgument.parse("2 fortnights on mon") }
    }

    @Test("--every takes a count and unit, or one word, and an on-clause up to the next option")
    func argumentList() throws {
        let options: [String: ArgumentList.Kind] = ["every": .countAndUnit, "note": .value, "due": .value]
        func read(_ line: String) throws -> ArgumentList {
            try ArgumentList(line.split(separator: " ").map(String.init), command: "task add", options: options)
        }
        let twoDays = try read("Bins --every 2 weeks on mon, thu --note two bins --due today")
        #expect(twoDays.value("every") == "2 weeks on mon, thu" && twoDays.value("note") == "two")
        #expect(twoDays.positional == ["Bins", "bins"] && twoDays.value("due") == "today")
        #expect(try read("Bins --every weekday Dust").value("every") == "weekday")
        #expect(try read("Bins --every weekday Dust").positional == ["Bins", "Dust"])
        #expect(try read("--every month on the last friday").value("every") == "month on the last friday")
        #expect(try read("--every week On Sat").value("every") == "week On Sat")
        #expect(try read("--every week Bins").positional == ["Bins"])
        #expect(try read("--every week on").value("every") == "week on")
        #expect(throws: CommandError.usage("--every 2 needs a unit: day, week, month or year")) {
            try read("Bins --every 2 --note x")
        }
        #expect(ArgumentList.countAndUnitLength(["2"]) == 1)
        #expect(ArgumentList.countAndUnitLength([]) == 0)
        #expect(ArgumentList.countAndUnitLength(["week", "on", "mon", "--due", "x"]) == 3)
    }

    @Test("Tab after an on-clause's words offers nothing; after the option that ends it, what comes next")
    func completion() async throws {
        let app = try await TestApp()
        #expect(await app.run(["task add Dust"]).status == 0)
        let completer = Completer(feeds: app.environment.feeds, tasks: app.environment.tasks)
        await completer.reload()
        #expect(completer.candidates(before: ["task", "edit", "--every", "week", "on", "mon"], prefix: "") == [])
        #expect(completer.candidates(before: ["task", "edit", "--every", "2", "weeks", "on"], prefix: "") == [])
        #expect(
            completer.candidates(
                before: ["task", "edit", "--every", "2", "weeks", "on", "mon", "--note", "x"], prefix: "") == ["1"])
        #expect(completer.candidates(before: ["task", "edit", "--every", "weekday"], prefix: "") == ["1"])
        #expect(completer.candidates(before: ["task", "edit", "--every", "2"], prefix: "") == [])
    }

    @Test("task add with an on-clause: the clause ends at the next option; a bad day adds nothing")
    func taskAdd() async throws {
        let app = try await TestApp()
        let refused = await app.run(["task add Bins --every 2 weeks on mon, funday --due 2026-11-30"])
        #expect(refused.status == 1)
        #expect(refused.err.first?.contains(#""funday" is not a weekday"#) == true, "\(refused.err)")
        #expect(await app.run(["task list"]).out == ["no tasks"])
        let added = await app.run(["task add Bins --every 2 weeks on mon,thu --due 2026-11-30 --note 'both bins'"])
        #expect(added.status == 0, "\(added.err)")
        let task = try #require((try await app.json("task list")["tasks"] as? [[String: Any]])?.first)
        #expect(task["due"] as? String == "2026-11-30" && task["note"] as? String == "both bins")
        #expect((task["every"] as? [String: Any])?["count"] as? Int == 2)
        #expect(added.out == [#"added task #1 "Bins", due 2026-11-30, every 2 weeks on Mon, Thu"#])

    }
}
