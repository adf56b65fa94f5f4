package import Foundation
import Models

/// The details of a chore beyond its day and schedule, as a `VTODO` carries them: a due time
/// and its zone (`DUE;TZID=…` with the `VTIMEZONE`), a priority (`PRIORITY`), and reminders
/// (`VALARM`s whose `TRIGGER` can be said as a time before the due time).
extension ChoreObject {
    /// The due time of day and its zone a `DUE` names: none for a DATE; the digits' time for a
    /// floating DATE-TIME (no zone) and for one with a `TZID` (that zone, when this system knows
    /// it; else read as local); for a UTC one, its time where the user is (no zone).
    static func dueTime(
        of property: ICalendar.Property, calendar: Calendar
    ) -> (time: TimeOfDay?, zone: String?) {
        guard let parsed = ICalendarDate.components(property.value), let time = parsed.time else { return (nil, nil) }
        if parsed.isUTC, let instant = ICalendarDate.instant(property.value) {
            let parts = calendar.dateComponents([.hour, .minute], from: instant)
            return (TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0), nil)
        }
        let zone = property.parameter("TZID").flatMap { TimeZone(identifier: $0) }?.identifier
        return (TimeOfDay(hour: time.hour, minute: time.minute), zone)
    }

    /// The instant the chore is due at, as `fields` say (its day at its time in its zone, or
    /// the start of the day where the user is).
    static func dueInstant(_ fields: ChoreFields, calendar: Calendar) -> Date? {
        guard let due = fields.due else { return nil }
        let task = HouseholdTask(
            name: "-", dueDate: due, dueTime: fields.dueTime, timeZone: fields.timeZone, createdAt: due)
        return task.dueInstant(calendar: calendar)
    }

    /// The reminders `todo`'s alarms name, in minutes before the due instant `due`, each with
    /// the index of its alarm among the `VALARM`s; an alarm whose trigger cannot be read, or is
    /// further than a year from the due time, is none (and is kept as it is).
    static func reminders(
        in todo: ICalendar.Component, due: Date?, calendar: Calendar
    ) -> [(minutes: Int, alarm: Int)] {
        guard let due else { return [] }
        let start = todo.property("DTSTART").flatMap { start -> Date? in
            guard let day = ICalendarDate.day(of: start, calendar: calendar) else { return nil }
            let (time, zone) = dueTime(of: start, calendar: calendar)
            let task = HouseholdTask(name: "-", dueDate: day, dueTime: time, timeZone: zone, createdAt: day)
            return task.dueInstant(calendar: calendar)
        }
        var result: [(Int, Int)] = []
        for (index, alarm) in todo.components(named: "VALARM").enumerated() {
            guard let trigger = alarm.property("TRIGGER") else { continue }
            let at: Date?
            if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" || trigger.value.hasSuffix("Z") {
                at = ICalendarDate.instant(trigger.value)
            } else if let offset = ICalendarDuration.seconds(trigger.value) {
                let related = trigger.parameter("RELATED")?.uppercased() == "END" ? due : (start ?? due)
                at = related.addingTimeInterval(Double(offset))
            } else {
                at = nil
            }
            guard let at else { continue }
            let minutes = Int((due.timeIntervalSince(at) / 60).rounded(.down))
            guard abs(minutes) <= TaskReminder.maximumMinutes else { continue }
            result.append((minutes, index))
        }
        return result
    }

    /// `todo`'s alarms made to say `wanted` (minutes before the due time): alarms of reminders no
    /// longer wanted go, one `VALARM` (`ACTION:DISPLAY`, `TRIGGER;RELATED=END`) comes for each
    /// new one; alarms that say something else (an unreadable trigger) stay as they are.
    static func setReminders(
        _ wanted: [Int], of todo: inout ICalendar.Component, due: Date?, calendar: Calendar
    ) {
        let current = reminders(in: todo, due: due, calendar: calendar)
        let unwanted = Set(current.filter { !wanted.contains($0.minutes) }.map(\.alarm))
        var index = -1
        todo.removeComponents { component in
            guard component.name == "VALARM" else { return false }
            index += 1
            return unwanted.contains(index)
        }
        let have = Set(current.map(\.minutes))
        let summary = todo.property("SUMMARY")?.value ?? "Reminder"
        for minutes in wanted.sorted() where !have.contains(minutes) {
            var alarm = ICalendar.Component(name: "VALARM")
            alarm.set(ICalendar.Property(name: "ACTION", value: "DISPLAY"))
            alarm.set(ICalendar.Property(name: "DESCRIPTION", value: summary))
            alarm.set(
                ICalendar.Property(
                    name: "TRIGGER", parameters: [.init("RELATED", "END")],
                    value: ICalendarDuration.text(seconds: -minutes * 60)))
            todo.append(alarm)
        }
    }

    /// Every alarm of `todo` set at a time (`TRIGGER;VALUE=DATE-TIME`) moved by `seconds`; the
    /// alarms relative to the due time follow it by themselves.
    static func shiftAlarms(of todo: inout ICalendar.Component, by seconds: TimeInterval) {
        todo.updateComponents(named: "VALARM") { alarm in
            guard let trigger = alarm.property("TRIGGER"),
                trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" || trigger.value.hasSuffix("Z"),
                let at = ICalendarDate.instant(trigger.value)
            else { return }
            alarm.set(
                ICalendar.Property(
                    name: "TRIGGER", parameters: trigger.parameters,
                    value: ICalendarDate.utcStamp(at.addingTimeInterval(seconds))))
        }
    }

    /// `DUE` written anew for `day` at `time` in `zone`: `VALUE=DATE` without a time, a floating
    /// DATE-TIME without a zone, `TZID=zone` with one (its `VTIMEZONE` added to `zones` unless
    /// `known` holds it).
    /// `DTSTART`, when there is one, keeps its day and takes the same form.
    static func writeDue(
        day: Date, time: TimeOfDay?, zone: String?, todo: inout ICalendar.Component, known: Set<String>,
        zones: inout [ICalendar.Component], calendar: Calendar
    ) {
        func property(_ name: String, on day: Date) -> ICalendar.Property {
            let date = ICalendarDate.date(day)
            guard let time else {
                return ICalendar.Property(name: name, parameters: [.init("VALUE", "DATE")], value: date)
            }
            let value = date + "T" + String(format: "%02d%02d00", time.hour, time.minute)
            guard let zone else { return ICalendar.Property(name: name, value: value) }
            return ICalendar.Property(name: name, parameters: [.init("TZID", zone)], value: value)
        }
        todo.set(property("DUE", on: day))
        if let start = todo.property("DTSTART"), let startDay = ICalendarDate.day(of: start, calendar: calendar) {
            todo.set(property("DTSTART", on: min(startDay, day)))
        }
        if time != nil, let zone, let timeZone = TimeZone(identifier: zone) {
            if !known.contains(zone), !zones.contains(where: { $0.property("TZID")?.value == zone }) {
                zones.append(ICalendarTimeZone.component(timeZone, around: day))
            }
        }
    }

    /// The completions `X-TIDINGS-DONE` lines record (`X-TIDINGS-DONE;X-DEVICE=Kitchen:
    /// 20261127T093000Z`), oldest first, one per second, the newest `ChoreCompletion.kept`; a
    /// line whose time cannot be read is left out.
    static func history(of todo: ICalendar.Component) -> [ChoreCompletion] {
        ChoreCompletion.normalized(
            todo.properties("X-TIDINGS-DONE").compactMap { property in
                ICalendarDate.instant(property.value).map {
                    ChoreCompletion(at: $0, device: property.parameter("X-DEVICE"))
                }
            })
    }

    /// `todo`'s `X-TIDINGS-DONE` lines written anew for `history`.
    static func setHistory(_ history: [ChoreCompletion], of todo: inout ICalendar.Component) {
        todo.remove("X-TIDINGS-DONE")
        for entry in history {
            var property = ICalendar.Property(name: "X-TIDINGS-DONE", value: ICalendarDate.utcStamp(entry.at))
            if let device = entry.device {
                property = ICalendar.Property(
                    name: "X-TIDINGS-DONE", parameters: [.init("X-DEVICE", device)], value: property.value)
            }
            todo.add(property)
        }
    }

    /// The parent a `RELATED-TO` names: one without `RELTYPE` or with `RELTYPE=PARENT` (RFC
    /// 5545 3.8.4.5); a blank one is none.
    static func parentUID(of todo: ICalendar.Component) -> String? {
        todo.properties("RELATED-TO").first(where: isParent).map { $0.textValue.trimmedWhitespace }.flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    /// `todo`'s parent `RELATED-TO` set to `uid` (removed with `nil`); a sibling or child one
    /// another client wrote stays.
    static func setParent(_ uid: String?, of todo: inout ICalendar.Component) {
        todo.removeProperties { $0.name == "RELATED-TO" && isParent($0) }
        if let uid { todo.add(ICalendar.Property(name: "RELATED-TO", text: uid)) }
    }

    private static func isParent(_ property: ICalendar.Property) -> Bool {
        (property.parameter("RELTYPE")?.uppercased() ?? "PARENT") == "PARENT"
    }

    /// The priority a `PRIORITY` names (0, none or unreadable is none).
    static func priority(of todo: ICalendar.Component) -> TaskPriority? {
        todo.property("PRIORITY").flatMap { Int($0.value.trimmedWhitespace) }.flatMap(TaskPriority.init(iCalendar:))
    }
}

/// iCalendar durations (RFC 5545 3.3.6): `-PT30M`, `P1D`, `-P1DT2H`, `P2W`.
enum ICalendarDuration {
    /// The seconds a duration names; `nil` when it is not one.
    static func seconds(_ value: String) -> Int? {
        var text = Substring(value.trimmedWhitespace.uppercased())
        var sign = 1
        if text.first == "-" || text.first == "+" {
            sign = text.first == "-" ? -1 : 1
            text = text.dropFirst()
        }
        guard text.first == "P" else { return nil }
        text = text.dropFirst()
        var total = 0
        var digits = ""
        var inTime = false
        var any = false
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            if character == "T" {
                guard digits.isEmpty, !inTime else { return nil }
                inTime = true
                continue
            }
            guard let count = Int(digits), count <= 10_000_000 else { return nil }
            let unit: Int
            switch (character, inTime) {
            case ("W", false): unit = 604_800
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3_600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            total += count * unit
            digits = ""
            any = true
        }
        guard any, digits.isEmpty else { return nil }
        return sign * total
    }

    /// `-PT30M`, `-P1D`, `-P1DT2H30M`, `PT0S`.
    static func text(seconds: Int) -> String {
        guard seconds != 0 else { return "PT0S" }
        var rest = abs(seconds)
        var text = seconds < 0 ? "-P" : "P"
        if rest % 604_800 == 0 { return text + "\(rest / 604_800)W" }
        if rest >= 86_400 {
            text += "\(rest / 86_400)D"
            rest %= 86_400
        }
        guard rest > 0 else { return text }
        text += "T"
        if rest >= 3_600 {
            text += "\(rest / 3_600)H"
            rest %= 3_600
        }
        if rest >= 60 {
            text += "\(rest / 60)M"
            rest %= 60
        }
        if rest > 0 { text += "\(rest)S" }
        return text
    }
}

/// `VTIMEZONE` components from the system's time zone data.
enum ICalendarTimeZone {
    /// A `VTIMEZONE` for `zone` that covers the year before `day` to five years after it: one
    /// `STANDARD` or `DAYLIGHT` component for the offset at the start, then one per transition.
    static func component(_ zone: TimeZone, around day: Date) -> ICalendar.Component {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let year = utc.component(.year, from: day)
        let start = utc.date(from: DateComponents(year: year - 1, month: 1, day: 1)) ?? day
        let end = utc.date(from: DateComponents(year: year + 5, month: 12, day: 31)) ?? day
        var component = ICalendar.Component(name: "VTIMEZONE")
        component.set(ICalendar.Property(name: "TZID", value: zone.identifier))
        func observance(at instant: Date, from before: Int) -> ICalendar.Component {
            let after = zone.secondsFromGMT(for: instant)
            var part = ICalendar.Component(name: zone.isDaylightSavingTime(for: instant) ? "DAYLIGHT" : "STANDARD")
            // DTSTART is the local time the change happens at, in the offset before it.
            part.set(ICalendar.Property(name: "DTSTART", value: localStamp(instant, offset: before)))
            part.set(ICalendar.Property(name: "TZOFFSETFROM", value: offset(before)))
            part.set(ICalendar.Property(name: "TZOFFSETTO", value: offset(after)))
            if let name = zone.abbreviation(for: instant) { part.set(ICalendar.Property(name: "TZNAME", value: name)) }
            return part
        }
        component.append(observance(at: start, from: zone.secondsFromGMT(for: start)))
        var cursor = start
        for _ in 0..<40 {
            guard let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= end else { break }
            component.append(observance(at: next, from: zone.secondsFromGMT(for: next.addingTimeInterval(-1))))
            cursor = next
        }
        return component
    }

    private static func localStamp(_ instant: Date, offset: Int) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let parts = utc.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: instant.addingTimeInterval(Double(offset)))
        return String(
            format: "%04d%02d%02dT%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
    }

    private static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return sign + String(format: "%02d%02d", minutes / 60, minutes % 60)
    }
}

/// One time a chore was done, as its object shares it: when (to the second) and the home or
/// device that recorded it.
package struct ChoreCompletion: Sendable, Hashable {
    /// When, to the second.
    package var at: Date
    /// The `device-name` of the home that recorded it, when known.
    package var device: String?

    /// How many completions an object keeps: the newest.
    package static let kept = 50

    package init(at: Date, device: String?) {
        self.at = ChoreMapping.wholeSeconds(at)
        self.device = Self.cleaned(device)
    }

    /// A device name as shared: without control characters, at most 64 characters; blank is
    /// none.
    static func cleaned(_ device: String?) -> String? {
        guard let device else { return nil }
        let kept = String(
            String.UnicodeScalarView(device.unicodeScalars.filter { $0.properties.generalCategory != .control })
        ).trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : String(kept.prefix(64))
    }

    /// `entries` oldest first, one per second (the first of a second stays), the newest `kept`.
    static func normalized(_ entries: [ChoreCompletion]) -> [ChoreCompletion] {
        var seen: Set<Date> = []
        let unique = entries.sorted { $0.at < $1.at }.filter { seen.insert($0.at).inserted }
        return Array(unique.suffix(kept))
    }

    /// Three-way: a completion either side has stays, unless `base` had it and a side took it
    /// back (undone there); the other device's name wins where both name one.
    static func merge(base: [ChoreCompletion], local: [ChoreCompletion], remote: [ChoreCompletion])
        -> [ChoreCompletion]
    {
        let baseTimes = Set(base.map(\.at))
        let localTimes = Set(local.map(\.at))
        let remoteTimes = Set(remote.map(\.at))
        let oldest = base.count >= kept ? base.first?.at : nil
        let merged = (remote + local).filter { entry in
            // An entry the window of the newest `kept` dropped was not taken back.
            guard baseTimes.contains(entry.at), oldest.map({ entry.at > $0 }) ?? true else { return true }
            return localTimes.contains(entry.at) && remoteTimes.contains(entry.at)
        }
        return normalized(merged)
    }
}
