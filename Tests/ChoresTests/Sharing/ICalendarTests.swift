import Foundation
import Testing

@testable import Chores

/// The iCalendar reader and writer (RFC 5545) that chores are shared through: what other
/// clients wrote must come back byte for byte, and what Tidings writes must be valid.
@Suite("iCalendar objects")
struct ICalendarTests {
    static func text(_ name: String) throws -> String {
        let url = try #require(
            Bundle.module.url(forResource: "Resources/ical/" + name, withExtension: nil), "missing fixture \(name)")
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    /// The VTODO of `calendar`.
    static func todo(_ calendar: ICalendar) throws -> ICalendar.Component {
        try #require(calendar.root.components(named: "VTODO").first)
    }

    @Test(
        "the objects Apple Reminders and tasks.org write come back byte for byte",
        arguments: ["apple-reminders.ics", "tasks-org.ics"])
    func roundTrip(fixture: String) throws {
        let text = try Self.text(fixture)
        let calendar = try ICalendar(parsing: text)
        #expect(calendar.text == text)
        #expect(calendar.root.name == "VCALENDAR")
        let todo = try Self.todo(calendar)
        #expect(todo.components(named: "VALARM").count == 1)
    }

    @Test("setting one property rewrites that line only: alarms, time zones and X- properties stay as they were")
    func patchKeepsTheRest() throws {
        let text = try Self.text("apple-reminders.ics")
        var calendar = try ICalendar(parsing: text)
        calendar.root.updateComponents(named: "VTODO") { todo in
            todo.set(ICalendar.Property(name: "SUMMARY", text: "Bins, then recycling; done"))
            todo.set(ICalendar.Property(name: "DUE", parameters: [.init("VALUE", "DATE")], value: "20241112"))
        }
        let written = calendar.text
        let before = text.components(separatedBy: "\r\n")
        let after = written.components(separatedBy: "\r\n")
        #expect(after.count == before.count)
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(
            changed.map(\.1) == ["SUMMARY:Bins\\, then recycling\\; done", "DUE;VALUE=DATE:20241112"])
        // Read back, the values are what was set and the rest is untouched.
        let reread = try ICalendar(parsing: written)
        let todo = try Self.todo(reread)
        #expect(todo.property("SUMMARY")?.textValue == "Bins, then recycling; done")
        #expect(todo.property("X-APPLE-SORT-ORDER")?.value == "753123456")
        #expect(reread.root.components(named: "VTIMEZONE").first == calendar.root.components(named: "VTIMEZONE").first)
    }

    @Test("a property set to the value it has keeps its original text, folding included")
    func unchangedValueKeepsText() throws {
        let text = try Self.text("apple-reminders.ics")
        var calendar = try ICalendar(parsing: text)
        let description = try #require(try Self.todo(calendar).property("DESCRIPTION"))
        #expect(description.textValue.hasSuffix("Put them out the evening before — the truck comes at six."))
        calendar.root.updateComponents(named: "VTODO") { todo in
            todo.set(ICalendar.Property(name: "DESCRIPTION", text: description.textValue))
        }
        #expect(calendar.text == text)
    }

    @Test("a new property goes after the last property, before the nested components; removing drops every copy")
    func addAndRemove() throws {
        var calendar = try ICalendar(parsing: try Self.text("tasks-org.ics"))
        calendar.root.updateComponents(named: "VTODO") { todo in
            todo.set(ICalendar.Property(name: "URL", value: "https://example.com/a?b=1;c=2"))
            todo.remove("X-MOZ-SNOOZE-TIME")
        }
        let lines = calendar.text.components(separatedBy: "\r\n")
        let url = try #require(lines.firstIndex(of: "URL:https://example.com/a?b=1;c=2"))
        #expect(lines[url + 1] == "BEGIN:VALARM")
        #expect(!lines.contains { $0.hasPrefix("X-MOZ-SNOOZE-TIME") })
    }

    @Test("long values fold at 75 octets without splitting a UTF-8 character, and unfold to what was written")
    func folding() throws {
        let note = String(repeating: "Küche wischen, Fenster putzen; 掃除 🧹 ", count: 12)
        var todo = ICalendar.Component(name: "VTODO")
        todo.set(ICalendar.Property(name: "UID", value: "fold-1"))
        todo.set(ICalendar.Property(name: "DESCRIPTION", text: note))
        var calendar = try ICalendar(parsing: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n")
        calendar.root.append(todo)
        let written = calendar.text
        for line in written.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75, "\(line.utf8.count) octets: \(line)")
        }
        // Every byte is valid UTF-8 line by line: no character was cut in two.
        for line in written.split(separator: "\r\n") {
            #expect(String(validating: Array(line.utf8), as: UTF8.self) != nil)
        }
        let reread = try Self.todo(try ICalendar(parsing: written))
        #expect(reread.property("DESCRIPTION")?.textValue == note)
        #expect(written.hasSuffix("END:VTODO\r\nEND:VCALENDAR\r\n"))
    }

    @Test(
        "TEXT escaping of backslash, semicolon, comma and line breaks reads back the same",
        arguments: ["a\\b", "x;y,z", "line one\nline two", "crlf\r\nbreak", "trailing\\", "", "plain"])
    func escaping(text: String) throws {
        let escaped = ICalendarText.escaped(text)
        #expect(!escaped.contains("\n") && !escaped.contains("\r"))
        #expect(ICalendarText.unescaped(escaped) == text.replacingOccurrences(of: "\r\n", with: "\n"))
    }

    @Test("escapes other clients write: \\N is a line break, an unknown escape keeps its character")
    func liberalUnescaping() {
        #expect(ICalendarText.unescaped("a\\Nb\\:c") == "a\nb:c")
    }

    @Test("parameters: quoted values with ; : and , inside, several values, RFC 6868 carets")
    func parameters() throws {
        let text =
            "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:p\r\n"
            + "ATTENDEE;CN=\"Doe, Jo; Esq.\";MEMBER=\"mailto:a@x\",\"mailto:b@x\";X-NOTE=say ^'hi^'^nbye:mailto:jo@x\r\n"
            + "END:VTODO\r\nEND:VCALENDAR\r\n"
        let calendar = try ICalendar(parsing: text)
        let attendee = try #require(try Self.todo(calendar).property("ATTENDEE"))
        #expect(attendee.parameter("CN") == "Doe, Jo; Esq.")
        #expect(attendee.parameters.first { $0.name == "MEMBER" }?.values == ["mailto:a@x", "mailto:b@x"])
        #expect(attendee.parameter("X-NOTE") == "say \"hi\"\nbye")
        #expect(attendee.value == "mailto:jo@x")
        #expect(calendar.text == text)
        // Written anew, the same parameters read back the same.
        let copy = ICalendar.Property(name: "ATTENDEE", parameters: attendee.parameters, value: attendee.value)
        var changed = calendar
        changed.root.updateComponents(named: "VTODO") { $0.set(copy) }
        let again = try #require(try Self.todo(try ICalendar(parsing: changed.text)).property("ATTENDEE"))
        #expect(again.parameters == attendee.parameters)
    }

    @Test("bare LF line ends, lower-case names and a missing final line end are read; the text is kept as it was")
    func liberalReading() throws {
        let text = "begin:vcalendar\nversion:2.0\nbegin:vtodo\nuid:lf\nsummary:Lower\n case\nend:vtodo\nend:vcalendar"
        let calendar = try ICalendar(parsing: text)
        let todo = try Self.todo(calendar)
        #expect(todo.property("SUMMARY")?.textValue == "Lowercase")
        #expect(calendar.text == text)
    }

    @Test("blank lines between and after the lines are written back where they were (found by fuzzing)")
    func blankLines() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n\r\nBEGIN:VTODO\r\n \r\nUID:b\r\nEND:VTODO\r\nEND:VCALENDAR\r\n\r\n\n"
        let calendar = try ICalendar(parsing: text)
        #expect(calendar.text == text)
        #expect(try Self.todo(calendar).property("UID")?.value == "b")
    }

    @Test(
        "broken objects are refused with the line and the reason",
        arguments: [
            ("", ICalendarError.empty),
            ("\r\n\r\n", .empty),
            ("BEGIN:VTODO\r\nEND:VTODO\r\n", .malformed(line: 1, reason: "")),
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\n", .malformed(line: 2, reason: "")),
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", .malformed(line: 3, reason: "")),
            ("BEGIN:VCALENDAR\r\nno colon here\r\nEND:VCALENDAR\r\n", .malformed(line: 2, reason: "")),
            ("BEGIN:VCALENDAR\r\nX;=bad:v\r\nEND:VCALENDAR\r\n", .malformed(line: 2, reason: "")),
            ("BEGIN:VCALENDAR\r\nX;P=\"open:v\r\nEND:VCALENDAR\r\n", .malformed(line: 2, reason: "")),
            ("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nBEGIN:VCALENDAR\r\n", .malformed(line: 3, reason: "")),
        ] as [(String, ICalendarError)])
    func refused(text: String, expected: ICalendarError) {
        do {
            _ = try ICalendar(parsing: text)
            Issue.record("read \(text.debugDescription)")
        } catch {
            switch (error, expected) {
            case (.empty, .empty): break
            case (.malformed(let line, let reason), .malformed(let expectedLine, _)):
                #expect(line == expectedLine, "\(reason)")
                #expect(!reason.isEmpty)
            default: Issue.record("\(error) for \(text.debugDescription), expected \(expected)")
            }
        }
    }

    @Test("objects past the limits are refused before they are read: size and nesting")
    func limits() throws {
        let big =
            "BEGIN:VCALENDAR\r\nX-PAD:" + String(repeating: "a", count: ICalendar.maximumBytes)
            + "\r\nEND:VCALENDAR\r\n"
        #expect(throws: ICalendarError.tooLarge(bytes: big.utf8.count)) { try ICalendar(parsing: big) }
        let depth = ICalendar.maximumDepth + 1
        let nested =
            (0..<depth).map { "BEGIN:X\($0)\r\n" }.joined() + (0..<depth).reversed().map { "END:X\($0)\r\n" }.joined()
        do {
            _ = try ICalendar(parsing: nested.replacingOccurrences(of: "X0", with: "VCALENDAR"))
            Issue.record("read \(depth) levels")
        } catch {
            #expect("\(error)".contains("nest too deep"))
        }
    }
}
