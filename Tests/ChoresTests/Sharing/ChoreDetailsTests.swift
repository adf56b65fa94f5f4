import CalDAVTestSupport
import Foundation
import GRDB
import Models
import Store
import Testing

@testable import Chores

/// A chore's due time and zone, priority and reminders in its `VTODO`: read from what other
/// clients write, written so that they read them, and carried between two homes.
@Suite("Chore details: due times, priorities, reminders", .timeLimit(.minutes(10)))
struct ChoreDetailsTests {
    @Test("Reminders' and tasks.org's chores read with their due time and zone, priority and alarms")
    func readsOtherClients() throws {
        let apple = try ChoreObjectTests.object("apple-reminders.ics").fields(calendar: ChoreObjectTests.calendar())
        #expect(apple.dueTime == TimeOfDay(hour: 9, minute: 0) && apple.timeZone == "Europe/Berlin")
        #expect(apple.priority == .high)
        // TRIGGER;VALUE=DATE-TIME:20241105T080000Z is 09:00 in Berlin: at the due time.
        #expect(apple.reminders == [0])
        let tasks = try ChoreObjectTests.object("tasks-org.ics").fields(calendar: ChoreObjectTests.calendar())
        #expect(tasks.dueTime == nil && tasks.timeZone == nil && tasks.reminders == [0])
    }

    @Test("a new chore is written with DUE;TZID, its VTIMEZONE, PRIORITY and one VALARM per reminder, and reads back")
    func writesDetails() throws {
        var fields = ChoreFields(name: "Parents' evening", due: ChoreObjectTests.day("2026-11-27"))
        fields.dueTime = TimeOfDay(hour: 18, minute: 30)
        fields.timeZone = "America/New_York"
        fields.priority = .low
        fields.reminders = [30, 1440]
        let object = ChoreObject(uid: "u-1", fields: fields, now: ChoreHome.now, calendar: ChoreHome.utc)
        let lines = ChoreSyncFailureTests.unfolded(object.calendar.text)
        #expect(lines.contains("DUE;TZID=America/New_York:20261127T183000"), "\(lines)")
        #expect(lines.contains("PRIORITY:9"))
        #expect(lines.filter { $0.hasPrefix("TRIGGER") } == ["TRIGGER;RELATED=END:-PT30M", "TRIGGER;RELATED=END:-P1D"])
        #expect(lines.contains("BEGIN:VTIMEZONE") && lines.contains("TZID:America/New_York"))
        #expect(lines.contains("TZOFFSETTO:-0500") && lines.contains("TZOFFSETTO:-0400"), "standard and daylight")
        let reread = try ChoreObject(parsing: object.calendar.text).fields(calendar: ChoreHome.utc)
        #expect(reread == fields)

        // Without the time it becomes a chore of the whole day; the priority and one reminder go.
        var edited = try ChoreObject(parsing: object.calendar.text)
        var fewer = fields
        fewer.dueTime = nil
        fewer.timeZone = nil
        fewer.priority = nil
        fewer.reminders = [1440]
        edited.apply(fewer, now: ChoreHome.now, calendar: ChoreHome.utc)
        let after = ChoreSyncFailureTests.unfolded(edited.calendar.text)
        #expect(after.contains("DUE;VALUE=DATE:20261127") && !after.contains { $0.hasPrefix("PRIORITY") })
        #expect(after.filter { $0.hasPrefix("TRIGGER") } == ["TRIGGER;RELATED=END:-P1D"])
        #expect(try ChoreObject(parsing: edited.calendar.text).fields(calendar: ChoreHome.utc) == fewer)
    }

    @Test("durations read and write as RFC 5545 says")
    func durations() {
        for (text, seconds) in [
            ("-PT30M", -1800), ("PT0S", 0), ("P0D", 0), ("-P1D", -86_400), ("-P1DT2H30M", -95_400), ("P2W", 1_209_600),
            ("+PT1H", 3600),
        ] {
            #expect(ICalendarDuration.seconds(text) == seconds, "\(text)")
        }
        for bad in ["", "P", "PT", "30M", "-PT30", "P1H", "PT1D", "P1.5D", "PTT1H"] {
            #expect(ICalendarDuration.seconds(bad) == nil, "\(bad)")
        }
        for seconds in [-1800, 0, -86_400, -95_400, 1_209_600, -90] {
            #expect(ICalendarDuration.seconds(ICalendarDuration.text(seconds: seconds)) == seconds)
        }
    }

    @Test(
        "a due time, zone, priority and reminders go from one home through the server to another, and to python-caldav",
        arguments: [CalDAVTestServer.Kind.radicale])
    func roundTrip(_ kind: CalDAVTestServer.Kind) async throws {
        try await withCalDAVServer(kind) { server in
            let (a, b, _) = try await twoHomes(server)
            var berlin = ChoreHome.utc
            berlin.timeZone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
            let local = TaskService(store: a.store, now: { ChoreHome.now }, calendar: berlin)
            let added = try await local.add(
                name: "Bins", due: ChoreObjectTests.day("2026-11-24"), frequency: try .every(1, .week),
                details: TaskDetailChanges(
                    dueTime: .set(TimeOfDay(hour: 7, minute: 15)!), priority: .set(.high), reminders: .set([30])))
            #expect(added.timeZone == "Europe/Berlin")
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            let there = try await b.task("Bins")
            #expect(there.dueDay == "2026-11-24" && there.dueTime == TimeOfDay(hour: 7, minute: 15))
            #expect(there.timeZone == "Europe/Berlin" && there.priority == .high && there.reminders == [30])

            let listed = try ChoreSyncPeerTests.peer(server, ["list"])
            let todos = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
            let bins = try #require(todos.first { $0["summary"] as? String == "Bins" })
            #expect(bins["due_time"] as? String == "07:15" && bins["tzid"] as? String == "Europe/Berlin", "\(bins)")
            #expect(bins["priority"] as? Int == 1 && bins["alarms"] as? [String] == ["-PT30M"], "\(bins)")

            // python-caldav writes one the other way; both homes read it whole.
            _ = try ChoreSyncPeerTests.peer(
                server, ["add-timed", "py-2", "Dentist", "2026-12-02T08:45", "America/New_York", "5", "-PT2H"])
            _ = try await a.sync.sync()
            let dentist = try await a.task("Dentist")
            #expect(dentist.dueDay == "2026-12-02" && dentist.dueTime == TimeOfDay(hour: 8, minute: 45))
            #expect(dentist.timeZone == "America/New_York" && dentist.priority == .medium && dentist.reminders == [120])

            // A change on one home reaches the other and python-caldav.
            _ = try await b.tasks.edit(
                id: try #require(there.id),
                details: TaskDetailChanges(priority: .set(.low), reminders: .set([30, 1440])))
            _ = try await b.sync.sync()
            _ = try await a.sync.sync()
            let back = try await a.task("Bins")
            #expect(
                back.priority == .low && back.reminders == [30, 1440] && back.dueTime == TimeOfDay(hour: 7, minute: 15))
            let again = try #require(
                (try JSONSerialization.jsonObject(with: Data(try ChoreSyncPeerTests.peer(server, ["list"]).utf8))
                    as? [[String: Any]])?.first { $0["summary"] as? String == "Bins" })
            #expect(again["priority"] as? Int == 9 && (again["alarms"] as? [String])?.sorted() == ["-P1D", "-PT30M"])
        }
    }

    @Test("a chore's list goes to the other home as X-TIDINGS-LIST, and back to the default list")
    func lists() async throws {
        try await withCalDAVServer(.radicale) { server in
            let (a, b, chores) = try await twoHomes(server)
            _ = try await a.tasks.add(name: "Milk", details: TaskDetailChanges(list: .set("Groceries")))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            let milk = try await b.task("Milk")
            #expect(milk.list == "Groceries")
            let client = try CalDAVClientTests.client(server, chores)
            let texts = try await client.fetch(try await client.members().map(\.href)).compactMap(\.icalendar)
            #expect(texts.contains { $0.contains("X-TIDINGS-LIST:Groceries") })
            _ = try await b.tasks.edit(id: try #require(milk.id), details: TaskDetailChanges(list: .clear))
            _ = try await b.sync.sync()
            _ = try await a.sync.sync()
            #expect(try await a.task("Milk").list == nil)
            #expect(try await a.sync.sync() == ChoreSyncSummary())
        }
    }

    @Test("a chore last synced before these fields were read takes them from the server once, sending nothing")
    func upgradeTakesFields() async throws {
        try await withCalDAVServer(.radicale) { server in
            let chores = try server.makeCalendar("chores")
            let client = try CalDAVClientTests.client(server, chores)
            let text = try ICalendarTests.text("apple-reminders.ics")
            let href = client.href(forUID: try ChoreObject(parsing: text).uid)
            guard case .stored = try await client.put(text, at: href, ifMatch: nil) else {
                Issue.record("the server refused the fixture")
                return
            }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "chores-\(UUID().uuidString).sqlite")
            defer { try? FileManager.default.removeItem(at: path) }
            let home = try ChoreHome(server, store: try LocalStore.open(path: path.path))
            try await home.setUp(server, chores)
            _ = try await home.sync.sync()
            // As an older version left it: the task without the new fields, the object unmarked.
            let queue = try DatabaseQueue(path: path.path)
            try await queue.write { db in
                try db.execute(
                    sql: "UPDATE task SET dueTime = NULL, timeZone = NULL, priority = NULL, reminders = NULL")
                try db.execute(sql: "UPDATE choreSyncItem SET fieldsVersion = 1")
            }
            try queue.close()
            let before = try #require(try await client.fetch([href]).first)
            let summary = try await home.sync.sync()
            #expect(summary.sent == 0, "\(summary)")
            let task = try await home.task("Take out the bins")
            #expect(task.dueTime == TimeOfDay(hour: 9, minute: 0) && task.timeZone == "Europe/Berlin")
            #expect(task.priority == .high && task.reminders == [0])
            #expect(try await client.fetch([href]).first?.etag == before.etag, "the server's object is untouched")
        }
    }
}
