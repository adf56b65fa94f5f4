import Foundation
import Models
import Testing

@Suite("Frequency rules: RRULE, JSON and description")
struct FrequencyRuleTests {
    @Test(
        "RRULE values as Apple Reminders, tasks.org and Thunderbird write them read into rule parts and back",
        arguments: [
            // (written by another client, canonical form, description)
            (
                "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR", "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR",
                "every weekday"
            ),
            ("FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR", "every month on the last Friday"),
            (
                "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1", "FREQ=MONTHLY;INTERVAL=1;BYDAY=FR;BYSETPOS=-1",
                "every month on the last Friday"
            ),
            (
                "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15",
                "every month on the 15th"
            ),
            ("FREQ=WEEKLY;WKST=SU;BYDAY=TU,TH", "FREQ=WEEKLY;INTERVAL=1;BYDAY=TU,TH", "every week on Tue, Thu"),
            (
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH,MO;UNTIL=20271231T000000Z", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH",
                "every 2 weeks on Mon, Thu"
            ),
            ("FREQ=DAILY;COUNT=10", "FREQ=DAILY;INTERVAL=1", "every day"),
            ("freq=monthly;bymonthday=-1", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1", "every month on the last day"),
            ("RRULE:FREQ=MONTHLY;BYDAY=2MO", "FREQ=MONTHLY;INTERVAL=1;BYDAY=2MO", "every month on the 2nd Monday"),
            (
                "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU",
                "every year on the last Sunday of its month"
            ),
            (
                "INTERVAL=3;FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR;",
                "FREQ=MONTHLY;INTERVAL=3;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
                "every 3 months on the last weekday"
            ),
            ("FREQ=WEEKLY;BYDAY=SA", "FREQ=WEEKLY;INTERVAL=1;BYDAY=SA", "every week on Sat"),
            (
                "FREQ=MONTHLY;BYMONTHDAY=15,1", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=1,15",
                "every month on the 1st and the 15th"
            ),
            ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "FREQ=DAILY;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR", "every weekday"),
            (
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR",
                "every 2 weeks on weekdays"
            ),
            (
                "FREQ=MONTHLY;BYDAY=+1MO,-1FR", "FREQ=MONTHLY;INTERVAL=1;BYDAY=1MO,-1FR",
                "every month on the 1st Monday and the last Friday"
            ),
            (
                "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", "FREQ=MONTHLY;INTERVAL=1;BYDAY=FR;BYMONTHDAY=13",
                "every month on the 13th when it is a Friday"
            ),
            (
                "FREQ=MONTHLY;BYMONTHDAY=-2", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-2",
                "every month on the 2nd to last day"
            ),
            (
                "FREQ=DAILY;INTERVAL=2;BYDAY=SA,SU", "FREQ=DAILY;INTERVAL=2;BYDAY=SA,SU",
                "every 2 days, only on Sat, Sun"
            ),
        ])
    func rruleRoundTrip(written: String, canonical: String, description: String) throws {
        let frequency = try Frequency(rrule: written)
        #expect(frequency.rruleValue == canonical)
        #expect(frequency.description == description)
        #expect(try Frequency(rrule: frequency.rruleValue) == frequency)
    }

    @Test("an RRULE without rule parts is the plain frequency, and writes INTERVAL as today's rules do")
    func plainRRULE() throws {
        #expect(try Frequency(rrule: "FREQ=WEEKLY") == Frequency(count: 1, unit: .week))
        #expect(try Frequency(rrule: "FREQ=MONTHLY;INTERVAL=2") == Frequency(count: 2, unit: .month))
        #expect(try Frequency(count: 1, unit: .week).rruleValue == "FREQ=WEEKLY;INTERVAL=1")
        #expect(try Frequency(count: 3, unit: .year).rruleValue == "FREQ=YEARLY;INTERVAL=3")
        #expect(try Frequency(rrule: "FREQ=DAILY;INTERVAL=10000").count == 10_000)
        // Parts Tidings does not model, even ones it cannot read, are not its business.
        #expect(
            try Frequency(rrule: "FREQ=DAILY;X-FOO=;BYHOUR=9,10;BYMONTH=x;COUNT=;BYHOUR=1")
                == Frequency(count: 1, unit: .day))
    }

    @Test(
        "a malformed RRULE is refused, naming the part",
        arguments: [
            (
                "FREQ=WEEKLY;BYDAY=XX",
                #"BYDAY=XX: "XX" is not a weekday (MO, TU, WE, TH, FR, SA or SU, numbered like 2MO or -1FR)"#
            ),
            (
                "FREQ=MONTHLY;BYMONTHDAY=40",
                #"BYMONTHDAY=40: "40" is not a day of the month (1 to 31, or -31 to -1 counting from the end)"#
            ),
            (
                "FREQ=MONTHLY;BYMONTHDAY=0",
                #"BYMONTHDAY=0: "0" is not a day of the month (1 to 31, or -31 to -1 counting from the end)"#
            ),
            ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0: the interval is a whole number from 1 to 10000"),
            ("FREQ=DAILY;INTERVAL=10001", "INTERVAL=10001: the interval is a whole number from 1 to 10000"),
            ("FREQ=DAILY;INTERVAL=two", "INTERVAL=two: the interval is a whole number from 1 to 10000"),
            ("FREQ=DAILY;INTERVAL=-1", "INTERVAL=-1: the interval is a whole number from 1 to 10000"),
            ("FREQ=WEEKLY;BYDAY", #"the part "BYDAY" has no "=" (write NAME=VALUE)"#),
            ("FREQ=HOURLY", "FREQ=HOURLY: a task repeats DAILY, WEEKLY, MONTHLY or YEARLY"),
            ("INTERVAL=2;BYDAY=MO", "it has no FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)"),
            ("", "it has no FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)"),
            ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"),
            ("FREQ=WEEKLY;BYDAY=2MO", "the 2nd Monday needs a monthly or yearly recurrence, not a weekly one"),
            ("FREQ=DAILY;BYDAY=-1FR", "the last Friday needs a monthly or yearly recurrence, not a daily one"),
            ("FREQ=MONTHLY;BYDAY=0FR", #"BYDAY=0FR: "0FR": a weekday is numbered 1 to 53, or -53 to -1 from the end"#),
            (
                "FREQ=YEARLY;BYDAY=54FR",
                #"BYDAY=54FR: "54FR": a weekday is numbered 1 to 53, or -53 to -1 from the end"#
            ),
            (
                "FREQ=MONTHLY;BYDAY=1.5FR",
                #"BYDAY=1.5FR: "1.5FR" is not a weekday (MO, TU, WE, TH, FR, SA or SU, numbered like 2MO or -1FR)"#
            ),
            ("FREQ=MONTHLY;BYDAY=MO,,TU", "BYDAY=MO,,TU has an empty entry"),
            (
                "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=0",
                #"BYSETPOS=0: "0" is not a position (1 to 366, or -366 to -1 counting from the end)"#
            ),
            (
                "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=367",
                #"BYSETPOS=367: "367" is not a position (1 to 366, or -366 to -1 counting from the end)"#
            ),
            ("FREQ=WEEKLY;BYMONTHDAY=1", "a weekly recurrence cannot fall on days of the month"),
        ])
    func malformed(rule: String, reason: String) {
        #expect(throws: ModelError.invalidRecurrenceRule(rule, reason: reason)) { try Frequency(rrule: rule) }
    }

    @Test("the error says which rule and why in one line")
    func errorMessage() {
        let error = ModelError.invalidRecurrenceRule("FREQ=WEEKLY;BYDAY=XX", reason: "BYDAY=XX: no")
        #expect(error.errorDescription == #""FREQ=WEEKLY;BYDAY=XX" is not a recurrence rule: BYDAY=XX: no"#)
        #expect(ModelError.invalidRecurrence("why").errorDescription == "not a recurrence: why")
    }

    @Test("rule parts are kept sorted without repeats, so equal rules compare equal")
    func canonicalParts() throws {
        let monday = try Frequency.WeekdayRule(.monday)
        let thursday = try Frequency.WeekdayRule(.thursday)
        let lastFriday = try Frequency.WeekdayRule(.friday, ordinal: -1)
        let messy = try Frequency(count: 1, unit: .week, weekdays: [thursday, monday, monday])
        #expect(messy == (try Frequency(count: 1, unit: .week, weekdays: [monday, thursday])))
        #expect(messy.weekdays.map(\.weekday) == [.monday, .thursday])
        let days = try Frequency(count: 1, unit: .month, weekdays: [], monthDays: [-1, 15, 1, -2, 15])
        #expect(days.monthDays == [1, 15, -2, -1])
        let monthly = try Frequency(count: 1, unit: .month, weekdays: [lastFriday, monday], setPositions: [-1, 1, -1])
        #expect(monthly.weekdays == [monday, lastFriday] && monthly.setPositions == [1, -1])
        #expect(lastFriday.rruleValue == "-1FR" && lastFriday.description == "the last Friday")
        #expect(monday.description == "Mon")
    }

    @Test("the initializer refuses what the RRULE reader refuses")
    func initializerChecks() throws {
        let secondMonday = try Frequency.WeekdayRule(.monday, ordinal: 2)
        #expect(throws: ModelError.invalidFrequencyCount(0)) {
            try Frequency(count: 0, unit: .month, weekdays: [secondMonday])
        }
        #expect(throws: ModelError.self) { try Frequency(count: 1, unit: .week, weekdays: [secondMonday]) }
        #expect(throws: ModelError.self) { try Frequency(count: 1, unit: .month, weekdays: [], monthDays: [32]) }
        #expect(throws: ModelError.self) { try Frequency(count: 1, unit: .month, weekdays: [], setPositions: [0]) }
        #expect(throws: ModelError.self) { try Frequency.WeekdayRule(.friday, ordinal: 0) }
        #expect(throws: ModelError.self) { try Frequency.WeekdayRule(.friday, ordinal: -54) }
        #expect(throws: ModelError.self) { try Frequency.WeekdayRule(.friday, ordinal: .min) }
        #expect(throws: ModelError.self) { try Frequency(count: 1, unit: .month, weekdays: [], monthDays: [.min]) }
        #expect(try Frequency.WeekdayRule(.friday, ordinal: 53).rruleValue == "53FR")
    }

    @Test("weekdays know their place: Monday first, Foundation's numbers with Sunday 1")
    func weekdayNumbers() {
        #expect(Frequency.Weekday.allCases.map(\.mondayOffset) == Array(0...6))
        #expect(Frequency.Weekday.allCases.map(\.calendarWeekday) == [2, 3, 4, 5, 6, 7, 1])
        #expect((1...7).compactMap(Frequency.Weekday.init(calendarWeekday:)).first == .sunday)
        #expect(Frequency.Weekday(calendarWeekday: 0) == nil && Frequency.Weekday(calendarWeekday: 8) == nil)
        #expect(Frequency.Weekday.wednesday.name == "Wednesday" && Frequency.Weekday.wednesday.shortName == "Wed")
    }

    @Test("JSON: today's shape still decodes; rule parts are written only when set, and round-trip through JSONCoding")
    func json() throws {
        let plain = Data(#"{"count":1,"unit":"week"}"#.utf8)
        #expect(try JSONDecoder().decode(Frequency.self, from: plain) == Frequency(count: 1, unit: .week))
        #expect(try JSONCoding.decoder().decode(Frequency.self, from: plain) == Frequency(count: 1, unit: .week))
        for (rule, text) in [
            ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", #"{"count":2,"unit":"week","weekdays":["MO","TH"]}"#),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", #"{"count":1,"month_days":[-1],"unit":"month"}"#),
            ("FREQ=MONTHLY;BYDAY=-1FR", #"{"count":1,"unit":"month","weekdays":["-1FR"]}"#),
            (
                "FREQ=MONTHLY;BYDAY=MO,FR;BYSETPOS=-1",
                #"{"count":1,"set_positions":[-1],"unit":"month","weekdays":["MO","FR"]}"#
            ),
            ("FREQ=DAILY", #"{"count":1,"unit":"day"}"#),
        ] {
            let frequency = try Frequency(rrule: rule)
            let encoded = try JSONCoding.encoder().encode(frequency)
            #expect(String(decoding: encoded, as: UTF8.self) == text)
            #expect(try JSONCoding.decoder().decode(Frequency.self, from: encoded) == frequency)
        }
    }

    @Test(
        "JSON with rule parts that cannot be is refused",
        arguments: [
            #"{"count":1,"unit":"week","weekdays":["XX"]}"#,
            #"{"count":1,"unit":"week","weekdays":["2MO"]}"#,
            #"{"count":1,"unit":"month","month_days":[40]}"#,
            #"{"count":1,"unit":"week","month_days":[1]}"#,
            #"{"count":1,"unit":"month","weekdays":["FR"],"set_positions":[0]}"#,
            #"{"count":0,"unit":"month","weekdays":["FR"]}"#,
            #"{"count":1,"unit":"month","weekdays":"FR"}"#,
            #"{"count":1,"unit":"month","month_days":[-9223372036854775808]}"#,
            #"{"count":1,"unit":"month","weekdays":["FR"],"set_positions":[-9223372036854775808]}"#,
        ])
    func jsonRefused(text: String) {
        #expect(throws: DecodingError.self) { try JSONCoding.decoder().decode(Frequency.self, from: Data(text.utf8)) }
    }
}
