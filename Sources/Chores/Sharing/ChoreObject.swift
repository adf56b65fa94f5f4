package import Foundation
import Markup
package import Models

/// What a chore shares with other clients: the fields a `VTODO` carries that Tidings reads.
package struct ChoreFields: Sendable, Equatable {
    /// `SUMMARY`.
    package var name: String
    /// `DESCRIPTION`.
    package var note: String?
    /// `DUE`, as a due day (00:00 UTC of the day, as `TaskService` stores days).
    package var due: Date?
    /// `RRULE` `FREQ` and `INTERVAL`.
    package var frequency: Frequency?
    /// `STATUS:COMPLETED` (a one-off chore), or `STATUS:CANCELLED` (any chore).
    package var isDone: Bool
    /// `STATUS:CANCELLED`: another client cancelled the chore. It is done without a
    /// completion, and keeps its status on the server until the chore is reopened here.
    package var isCancelled: Bool
    /// `COMPLETED` for a one-off chore; for a recurring one, `X-TIDINGS-COMPLETED`, the last
    /// time it was done (its `DUE` has moved on to the next occurrence).
    package var completed: Date?
    /// `URL`: the article a read-later chore links to.
    package var link: URL?
    /// The time of day of a `DUE` that is a DATE-TIME (see `ChoreObject.dueTime(of:calendar:)`).
    package var dueTime: TimeOfDay?
    /// The `TZID` of that time, when this system knows the zone; `nil` is the user's own.
    package var timeZone: String?
    /// `PRIORITY` (1–4 high, 5 medium, 6–9 low).
    package var priority: TaskPriority?
    /// The `VALARM`s that can be said as a time before the due time, in minutes, ascending.
    package var reminders: [Int] = []
    /// `X-TIDINGS-DONE`: when the chore was done and which home recorded it, oldest first, the
    /// newest `ChoreCompletion.kept` of them.
    package var history: [ChoreCompletion] = []
    /// `RELATED-TO` (without `RELTYPE`, or `RELTYPE=PARENT`): the UID of the chore this one is
    /// a step of.
    package var parentUID: String?
    /// `X-TIDINGS-LIST`: the list it is on, for other Tidings homes; `nil` for the default list.
    package var list: String?

    package init(
        name: String, note: String? = nil, due: Date? = nil, frequency: Frequency? = nil, isDone: Bool = false,
        completed: Date? = nil, link: URL? = nil, isCancelled: Bool = false
    ) {
        self.isCancelled = isCancelled
        self.name = name
        self.note = note
        self.due = due
        self.frequency = frequency
        self.isDone = isDone
        self.completed = completed
        self.link = link
    }
}

/// Why a calendar object is not a chore Tidings can read.
package enum ChoreObjectError: Error, Sendable, Equatable, CustomStringConvertible {
    case calendar(ICalendarError)
    case noTodo
    case missing(String)
    case invalid(property: String, value: String)

    package var description: String {
        switch self {
        case .calendar(let error): "\(error)"
        case .noTodo: "the calendar object holds no VTODO"
        case .missing(let property): "the VTODO has no \(property)"
        case .invalid(let property, let value): "the VTODO's \(property) is not valid: \(value.prefix(60))"
        }
    }
}

/// A chore as the `VTODO` of an iCalendar object (RFC 5545), read into `ChoreFields` and
/// patched from them: setting fields rewrites only the properties whose meaning changed, so
/// what other clients wrote (alarms, priorities, categories, `X-` properties, time zones, a
/// due time of day) survives every edit.
///
/// Due dates are days. A `DUE` that is a DATE is that day; a DATE-TIME with a `TZID`, or a
/// floating one, is the day its own digits name (09:00 in Berlin on the 5th is the 5th); a UTC
/// one is the day it falls on in `calendar`'s time zone. Moving the due day keeps the value's
/// form: a DATE stays a DATE, a time of day and its `TZID` stay, and `DTSTART` moves by the
/// same number of days so that it never follows `DUE`.
package struct ChoreObject: Sendable, Equatable {
    package private(set) var calendar: ICalendar

    /// The `VTODO`'s `UID`.
    package var uid: String { todo.property("UID")?.value ?? "" }

    private var todo: ICalendar.Component {
        calendar.root.components(named: "VTODO").first ?? ICalendar.Component(name: "VTODO")
    }

    /// Reads a calendar object that holds a `VTODO` with a `UID` and a `SUMMARY`.
    package init(parsing text: String) throws(ChoreObjectError) {
        do {
            calendar = try ICalendar(parsing: text)
        } catch {
            throw .calendar(error)
        }
        guard let todo = calendar.root.components(named: "VTODO").first else { throw .noTodo }
        guard let uid = todo.property("UID")?.value, !uid.isEmpty else { throw .missing("UID") }
    }

    /// A new object for a chore: `VERSION`, `PRODID`, and a `VTODO` with `uid`, stamped `now`.
    package init(uid: String, fields: ChoreFields, now: Date, calendar timeZoneCalendar: Calendar) {
        var todo = ICalendar.Component(name: "VTODO")
        todo.set(ICalendar.Property(name: "UID", value: uid))
        todo.set(ICalendar.Property(name: "DTSTAMP", value: ICalendarDate.utcStamp(now)))
        todo.set(ICalendar.Property(name: "CREATED", value: ICalendarDate.utcStamp(now)))
        var root = ICalendar.Component(name: "VCALENDAR")
        root.set(ICalendar.Property(name: "VERSION", value: "2.0"))
        root.set(ICalendar.Property(name: "PRODID", value: "-//Tidings//Chores//EN"))
        root.append(todo)
        calendar = ICalendar(root: root)
        apply(fields, now: now, calendar: timeZoneCalendar)
    }

    /// The chore's fields.
    ///
    /// - Throws: `.missing("SUMMARY")` for a VTODO without one; `.invalid` for a `DUE`,
    ///   `RRULE` or `COMPLETED` that cannot be read.
    package func fields(calendar timeZoneCalendar: Calendar) throws(ChoreObjectError) -> ChoreFields {
        let todo = self.todo
        guard let summary = todo.property("SUMMARY")?.textValue.trimmingCharacters(in: .whitespacesAndNewlines),
            !summary.isEmpty
        else { throw .missing("SUMMARY") }
        var fields = ChoreFields(name: summary)
        fields.note = todo.property("DESCRIPTION")?.textValue
        if let due = todo.property("DUE") {
            guard let day = ICalendarDate.day(of: due, calendar: timeZoneCalendar) else {
                throw .invalid(property: "DUE", value: due.value)
            }
            fields.due = day
            (fields.dueTime, fields.timeZone) = Self.dueTime(of: due, calendar: timeZoneCalendar)
            fields.reminders = Array(
                Set(
                    Self.reminders(
                        in: todo, due: Self.dueInstant(fields, calendar: timeZoneCalendar),
                        calendar: timeZoneCalendar
                    ).map(\.minutes))
            ).sorted()
        }
        fields.priority = Self.priority(of: todo)
        fields.history = Self.history(of: todo)
        fields.parentUID = Self.parentUID(of: todo)
        fields.list = todo.property("X-TIDINGS-LIST").map(\.textValue)
        if let rule = todo.property("RRULE") {
            fields.frequency = try Self.frequency(rule.value)
        }
        let status = todo.property("STATUS")?.value.trimmedWhitespace.uppercased()
        fields.isCancelled = status == "CANCELLED"
        fields.isDone = (fields.frequency == nil && status == "COMPLETED") || fields.isCancelled
        let completed = fields.frequency == nil ? todo.property("COMPLETED") : todo.property("X-TIDINGS-COMPLETED")
        if let completed {
            guard let instant = ICalendarDate.instant(completed.value) else {
                throw .invalid(property: completed.name, value: completed.value)
            }
            fields.completed = instant
        }
        if let url = todo.property("URL")?.value { fields.link = URL(string: url) }
        return fields
    }

    /// Rewrites the properties whose meaning differs from `fields`, and stamps the change
    /// (`DTSTAMP`, `LAST-MODIFIED`, `SEQUENCE` one up when a field changed). Every other
    /// property and component stays as it was.
    package mutating func apply(_ fields: ChoreFields, now: Date, calendar timeZoneCalendar: Calendar) {
        let current = try? self.fields(calendar: timeZoneCalendar)
        let knownZones = Set(calendar.root.components(named: "VTIMEZONE").compactMap { $0.property("TZID")?.value })
        var zones: [ICalendar.Component] = []
        defer { for zone in zones { calendar.root.prepend(zone) } }
        calendar.root.updateComponents(named: "VTODO") { todo in
            var changed = false
            func set(_ property: ICalendar.Property?, named name: String) {
                changed = true
                if let property { todo.set(property) } else { todo.remove(name) }
            }
            if current?.name != fields.name {
                set(ICalendar.Property(name: "SUMMARY", text: fields.name), named: "SUMMARY")
            }
            if current?.note != fields.note {
                set(fields.note.map { ICalendar.Property(name: "DESCRIPTION", text: $0) }, named: "DESCRIPTION")
            }
            let timeChanged = current?.dueTime != fields.dueTime || current?.timeZone != fields.timeZone
            if let day = fields.due, timeChanged || todo.property("DUE") == nil {
                changed = true
                Self.writeDue(
                    day: day, time: fields.dueTime, zone: fields.timeZone, todo: &todo, known: knownZones,
                    zones: &zones, calendar: timeZoneCalendar)
            } else if current?.due != fields.due {
                changed = true
                Self.moveDue(of: &todo, to: fields.due, calendar: timeZoneCalendar)
            }
            if current?.list != fields.list {
                set(fields.list.map { ICalendar.Property(name: "X-TIDINGS-LIST", text: $0) }, named: "X-TIDINGS-LIST")
            }
            if current?.parentUID != fields.parentUID {
                changed = true
                Self.setParent(fields.parentUID, of: &todo)
            }
            if current?.history != fields.history {
                changed = true
                Self.setHistory(fields.history, of: &todo)
            }
            if current?.priority != fields.priority {
                set(
                    fields.priority.map { ICalendar.Property(name: "PRIORITY", value: String($0.rawValue)) },
                    named: "PRIORITY")
            }
            // An alarm at a set time (as Reminders writes them) moves with the due time.
            if let old = current.flatMap({ Self.dueInstant($0, calendar: timeZoneCalendar) }),
                let new = Self.dueInstant(fields, calendar: timeZoneCalendar), old != new
            {
                Self.shiftAlarms(of: &todo, by: new.timeIntervalSince(old))
            }
            if current?.reminders != fields.reminders {
                // Alarms are read against the due time as it is now written.
                let due = Self.dueInstant(fields, calendar: timeZoneCalendar)
                let before = todo.components(named: "VALARM")
                Self.setReminders(fields.reminders, of: &todo, due: due, calendar: timeZoneCalendar)
                if todo.components(named: "VALARM") != before { changed = true }
            }
            if current?.frequency != fields.frequency {
                set(
                    fields.frequency.map { ICalendar.Property(name: "RRULE", value: Self.rule($0)) }, named: "RRULE")
            }
            if current?.due != fields.due || current?.frequency != fields.frequency {
                Self.startRecurrence(of: &todo, recurring: fields.frequency != nil, calendar: timeZoneCalendar)
            }
            if current?.isDone != fields.isDone || current?.isCancelled != fields.isCancelled
                || (fields.frequency == nil && current?.completed != fields.completed)
            {
                changed = true
                if fields.isCancelled {
                    todo.set(ICalendar.Property(name: "STATUS", value: "CANCELLED"))
                } else if fields.isDone {
                    todo.set(ICalendar.Property(name: "STATUS", value: "COMPLETED"))
                    todo.set(ICalendar.Property(name: "PERCENT-COMPLETE", value: "100"))
                    todo.set(
                        ICalendar.Property(name: "COMPLETED", value: ICalendarDate.utcStamp(fields.completed ?? now)))
                } else {
                    todo.set(ICalendar.Property(name: "STATUS", value: "NEEDS-ACTION"))
                    todo.remove("PERCENT-COMPLETE")
                    todo.remove("COMPLETED")
                }
            }
            if fields.frequency != nil, current?.completed != fields.completed {
                set(
                    fields.completed.map {
                        ICalendar.Property(name: "X-TIDINGS-COMPLETED", value: ICalendarDate.utcStamp($0))
                    }, named: "X-TIDINGS-COMPLETED")
            }
            if current?.link != fields.link {
                set(fields.link.map { ICalendar.Property(name: "URL", value: $0.absoluteString) }, named: "URL")
            }
            guard changed else { return }
            todo.set(ICalendar.Property(name: "DTSTAMP", value: ICalendarDate.utcStamp(now)))
            todo.set(ICalendar.Property(name: "LAST-MODIFIED", value: ICalendarDate.utcStamp(now)))
            if let sequence = todo.property("SEQUENCE").flatMap({ Int($0.value.trimmedWhitespace) }),
                sequence >= 0, sequence < Int.max
            {
                todo.set(ICalendar.Property(name: "SEQUENCE", value: String(sequence + 1)))
            }
        }
    }

    /// `DUE` moved to `day` in the form it has (see the type's notes), `DTSTART` by as many
    /// days; removed with `nil`.
    private static func moveDue(of todo: inout ICalendar.Component, to day: Date?, calendar: Calendar) {
        guard let day else {
            todo.remove("DUE")
            return
        }
        guard let old = todo.property("DUE"), let oldDay = ICalendarDate.day(of: old, calendar: calendar) else {
            todo.set(
                ICalendar.Property(name: "DUE", parameters: [.init("VALUE", "DATE")], value: ICalendarDate.date(day)))
            return
        }
        let days = ICalendarDate.days(from: oldDay, to: day)
        todo.set(ICalendarDate.shifted(old, byDays: days, calendar: calendar))
        if let start = todo.property("DTSTART"), ICalendarDate.day(of: start, calendar: calendar) != nil {
            todo.set(ICalendarDate.shifted(start, byDays: days, calendar: calendar))
        }
    }

    /// Keeps `DTSTART` in step with `DUE` (RFC 5545 3.8.5.3: the first instance of a
    /// recurrence set is `DTSTART`, and servers that expand recurrences skip an `RRULE`
    /// without one): a recurring chore without it gets one on its due day, in the form and
    /// with the parameters of its `DUE` (a DATE or a DATE-TIME, as RFC 5545 3.8.2.3 asks); a
    /// `DTSTART` another client wrote stays, unless it falls after `DUE`, when it moves back
    /// to the due day keeping its own form.
    private static func startRecurrence(of todo: inout ICalendar.Component, recurring: Bool, calendar: Calendar) {
        guard let due = todo.property("DUE"), let dueDay = ICalendarDate.day(of: due, calendar: calendar) else {
            return
        }
        guard let start = todo.property("DTSTART"), let startDay = ICalendarDate.day(of: start, calendar: calendar)
        else {
            if recurring { todo.set(ICalendar.Property(name: "DTSTART", parameters: due.parameters, value: due.value)) }
            return
        }
        if startDay > dueDay {
            todo.set(
                ICalendarDate.shifted(start, byDays: ICalendarDate.days(from: startDay, to: dueDay), calendar: calendar)
            )
        }
    }

    /// `FREQ=...;INTERVAL=N`, then `BYDAY`, `BYMONTHDAY` and `BYSETPOS` when the frequency has
    /// them (`Frequency.rruleValue`).
    static func rule(_ frequency: Frequency) -> String {
        frequency.rruleValue
    }

    /// The frequency an `RRULE` names by `FREQ`, `INTERVAL`, `BYDAY`, `BYMONTHDAY` and `BYSETPOS`
    /// (`Frequency.init(rrule:)`; its other parts, such as `UNTIL`, are kept in the object but
    /// not read).
    static func frequency(_ rule: String) throws(ChoreObjectError) -> Frequency {
        do {
            return try Frequency(rrule: rule)
        } catch {
            throw .invalid(property: "RRULE", value: rule)
        }
    }
}
