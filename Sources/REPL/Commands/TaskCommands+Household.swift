import Chores
import Foundation
import Models

/// `task list`, `task lists`, `task history` and `task agenda`, and how a chore's due time,
/// priority, list, parent and reminders are read from options and shown.
extension TaskCommands {
    /// A chore's `--due`: its day, and its time of day when one was given (`2026-11-27T09:30`).
    static func due(_ text: String, _ context: CommandContext) throws -> (day: Date, time: TimeOfDay?) {
        let moment: DueMoment
        do {
            moment = try DateArgument.moment(text, now: context.now(), calendar: context.calendar)
        } catch {
            throw CommandError.usage("--due: \(error.description)")
        }
        guard moment.hasTime else { return (moment.date, nil) }
        let parts = context.calendar.dateComponents([.hour, .minute], from: moment.date)
        return (moment.date, TimeOfDay(hour: parts.hour ?? 0, minute: parts.minute ?? 0))
    }

    /// `--priority`, `--list`, `--under` and `--remind` as changes; with `clearing` (an edit),
    /// `none` clears each.
    static func details(_ arguments: ArgumentList, clearing: Bool) throws -> TaskDetailChanges {
        var details = TaskDetailChanges()
        func isNone(_ text: String) -> Bool { clearing && ["none", ""].contains(text.lowercased()) }
        if let text = arguments.value("priority") {
            if isNone(text) {
                details.priority = .clear
            } else {
                guard let priority = TaskPriority(name: text) else {
                    throw CommandError.usage(
                        "--priority: \"\(text)\" is not a priority: high, medium or low\(clearing ? " (none clears it)" : "")"
                    )
                }
                details.priority = .set(priority)
            }
        }
        if let text = arguments.value("list") { details.list = isNone(text) ? .clear : .set(text) }
        if let text = arguments.value("under") {
            details.parentID = isNone(text) ? .clear : .set(try ArgumentList.id(text, what: "--under"))
        }
        if let text = arguments.value("remind") {
            details.reminders = isNone(text) ? .clear : .set(try reminders(text))
        }
        return details
    }

    /// `30m`, `2h`, `1d`, `1w`, `1h30m`, `0` (at the due time), comma-separated: minutes before
    /// the due time.
    static func reminders(_ text: String) throws -> [Int] {
        try text.split(separator: ",").map { part in
            let word = part.trimmingCharacters(in: .whitespaces).lowercased()
            if word == "0" { return 0 }
            var total = 0
            var digits = ""
            for character in word {
                if character.isASCII, character.isNumber {
                    digits.append(character)
                    continue
                }
                let unit: Int? =
                    switch character {
                    case "m": 1
                    case "h": 60
                    case "d": 1440
                    case "w": 10080
                    default: nil
                    }
                guard let unit, let count = Int(digits), count <= 525_600 else {
                    throw CommandError.usage(
                        "--remind: \"\(part)\" is not a time before the due time: use minutes, hours, days or weeks, "
                            + "like 30m, 2h, 1d, 1h30m, or 0 for the due time itself")
                }
                total += count * unit
                digits = ""
            }
            guard digits.isEmpty, !word.isEmpty else {
                throw CommandError.usage(
                    "--remind: \"\(part)\" needs a unit: m (minutes), h (hours), d (days) or w (weeks), like 30m")
            }
            return total
        }
    }

    /// `30m`, `2h`, `1d`, `1h30m`; `0m` at the due time.
    static func reminderText(_ minutes: Int) -> String {
        guard minutes != 0 else { return "0m" }
        var rest = abs(minutes)
        var text = minutes < 0 ? "-" : ""
        for (unit, size) in [("w", 10080), ("d", 1440), ("h", 60), ("m", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }

    /// The due day, and its time in the user's time zone when it has one (`2026-11-27 09:30`).
    func dueText(_ task: HouseholdTask) -> String {
        guard let day = task.dueDay else { return "" }
        guard task.dueTime != nil, let instant = task.dueInstant(calendar: context.calendar) else { return day }
        let parts = context.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
    }

    /// A local date and time (`2026-11-27 09:30`).
    func localStamp(_ date: Date) -> String {
        let parts = context.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
    }

    /// Whether an open chore is past due: its day before today, or its time passed.
    func isOverdue(_ task: HouseholdTask) -> Bool {
        guard !task.isDone, let due = task.dueDate else { return false }
        let now = context.now()
        if task.dueTime != nil, let instant = task.dueInstant(calendar: context.calendar) { return instant < now }
        return due < (try? tasks.today()) ?? .distantPast
    }

    /// A chore as `--json` shows it in lists.
    func taskJSON(_ task: HouseholdTask, last: TaskCompletion? = nil) -> [String: JSONValue] {
        [
            "id": .int(task.id ?? 0), "name": .string(task.name), "note": .string(task.note),
            "due": .string(task.dueDay), "time": .string(task.dueTime.map(\.description)),
            "time_zone": .string(task.dueTime == nil ? nil : task.timeZone),
            "every": task.frequency.map(Self.frequencyJSON) ?? .null,
            "done": .bool(task.isDone), "item_id": task.articleID.map { .int($0) } ?? .null,
            "priority": .string(task.priority?.description), "list": .string(task.list),
            "parent_id": task.parentID.map { .int($0) } ?? .null,
            "reminders": .array(task.reminders.map { .int($0) }),
            "last_done": .string(last.map { RFC3339.string(from: $0.completedAt) }),
        ]
    }

    /// A frequency as `--json` shows it: count and unit, the rule's parts when it has them
    /// (`weekdays` as RRULE writes them, `-1FR`), and its words.
    static func frequencyJSON(_ frequency: Frequency) -> JSONValue {
        var object: [String: JSONValue] = [
            "count": .int(frequency.count), "unit": .string(frequency.unit.rawValue), "text": .string("\(frequency)"),
        ]
        if !frequency.weekdays.isEmpty {
            object["weekdays"] = .array(frequency.weekdays.map { .string($0.rruleValue) })
        }
        if !frequency.monthDays.isEmpty { object["month_days"] = .array(frequency.monthDays.map { .int($0) }) }
        if !frequency.setPositions.isEmpty {
            object["set_positions"] = .array(frequency.setPositions.map { .int($0) })
        }
        return .object(object)
    }

    /// `tasks` with each chore's steps right after it (deeper by a level each), where the parent
    /// is in the list; the depth goes with each.
    static func nested(_ tasks: [HouseholdTask]) -> [(task: HouseholdTask, depth: Int)] {
        let ids = Set(tasks.compactMap(\.id))
        var children: [Int64: [HouseholdTask]] = [:]
        for task in tasks {
            if let parent = task.parentID, ids.contains(parent), parent != task.id {
                children[parent, default: []].append(task)
            }
        }
        var result: [(HouseholdTask, Int)] = []
        var placed: Set<Int64> = []
        func place(_ task: HouseholdTask, _ depth: Int) {
            guard let id = task.id, placed.insert(id).inserted else { return }
            result.append((task, depth))
            guard depth < 8 else { return }  // a loop another client wrote ends here
            for child in children[id] ?? [] { place(child, depth + 1) }
        }
        for task in tasks where task.parentID.map({ !ids.contains($0) }) ?? true { place(task, 0) }
        for task in tasks { place(task, 0) }  // what a loop left out
        return result
    }

    func list(_ input: CommandInput) async throws -> CommandOutput {
        let chosen = Self.listFilters.filter { input.arguments.has($0.0) }
        guard chosen.count <= 1 else {
            throw CommandError.usage("choose one of --overdue, --today, --upcoming, --done, --all")
        }
        let filter = chosen.first?.1 ?? .open
        // `--list` alone is `task lists`, as the issue asking for lists named it.
        if input.arguments.isBare("list") {
            guard chosen.isEmpty else { throw CommandError.usage("--list alone lists the lists: give it no filter") }
            return try await lists(input)
        }
        let listName = input.arguments.value("list")
        if filter == .done { return try await doneList(on: listName) }
        let viewModel = TaskListViewModel(service: tasks)
        await viewModel.load(filter)
        if case .failed(let message, _) = viewModel.state { throw CommandError(code: "storage", message: message) }
        var list = viewModel.state.content?.orderedTasks ?? []
        if let listName { list = try TaskService.tasks(list, on: listName == "" ? nil : listName) }
        let last = try await tasks.lastCompletions()
        let rows = Self.nested(list)
        let showsDone = filter == .all
        let showsPriority = list.contains { $0.priority != nil }
        let showsLast = list.contains { $0.isRecurring && $0.id.flatMap { last[$0] } != nil }
        let showsList = listName == nil && list.contains { $0.list != nil }
        var columns: [Table.Column] = [.init(title: "ID", alignRight: true), .init(title: "DUE")]
        if showsDone { columns.append(.init(title: "DONE")) }
        if showsPriority { columns.append(.init(title: "PRI")) }
        columns.append(.init(title: "EVERY"))
        if showsLast { columns.append(.init(title: "LAST DONE")) }
        columns.append(.init(title: "NAME", flexible: true))
        if showsList { columns.append(.init(title: "LIST")) }
        columns.append(.init(title: "NOTE", flexible: true))
        var table = Table(columns: columns)
        table.rows = rows.map { task, depth in
            let due = dueText(task)
            var row = [String(task.id ?? 0), isOverdue(task) ? context.display.styled(due, "31") : due]
            if showsDone { row.append(task.isDone ? "✓" : "") }
            if showsPriority { row.append(task.priority.map { String("\($0)".prefix(1)).uppercased() } ?? "") }
            row.append(task.frequency.map { "\($0)" } ?? "")
            if showsLast {
                row.append(
                    task.isRecurring ? task.id.flatMap { last[$0] }.map { localStamp($0.completedAt) } ?? "" : "")
            }
            let reminder = task.reminders.isEmpty ? "" : " ⏰"
            row.append(
                String(repeating: "  ", count: max(0, depth - 1)) + (depth > 0 ? "↳ " : "") + task.name + reminder)
            if showsList { row.append(task.list ?? "") }
            return row + [task.note ?? ""]
        }
        let json = JSONValue.object([
            "tasks": .array(list.map { .object(taskJSON($0, last: $0.id.flatMap { last[$0] })) })
        ])
        return CommandOutput(text: list.isEmpty ? "no tasks" : table.render(context.display), json: json)
    }

    /// `task list --done`: every completion, newest first (a recurring chore once per time it
    /// was done), then done chores without a recorded completion (cancelled elsewhere).
    private func doneList(on listName: String?) async throws -> CommandOutput {
        var entries = try await tasks.history(limit: 1000).map { (task: $0.task, completion: Optional($0.completion)) }
        let recorded = Set(entries.compactMap(\.task.id))
        entries += try await tasks.list(.done).filter { $0.id.map { !recorded.contains($0) } ?? true }.map {
            (task: $0, completion: nil)
        }
        if let listName {
            let wanted = listName.isEmpty ? nil : listName.lowercased()
            entries = entries.filter { $0.task.list?.lowercased() == wanted }
        }
        var table = Table(columns: [
            .init(title: "ID", alignRight: true), .init(title: "DONE AT"), .init(title: "EVERY"),
            .init(title: "NAME", flexible: true), .init(title: "BY"),
        ])
        table.rows = entries.map { task, completion in
            [
                String(task.id ?? 0), completion.map { localStamp($0.completedAt) } ?? "",
                task.frequency.map { "\($0)" } ?? "", task.name, completion?.device ?? "",
            ]
        }
        // Each row's chore as every list gives it, its last completion included.
        let last = try await tasks.lastCompletions()
        let json = JSONValue.object([
            "tasks": .array(
                entries.map { task, completion in
                    var object = taskJSON(task, last: task.id.flatMap { last[$0] })
                    object["completed_at"] = .string(completion.map { RFC3339.string(from: $0.completedAt) })
                    object["device"] = .string(completion?.device)
                    return .object(object)
                })
        ])
        return CommandOutput(text: entries.isEmpty ? "no tasks" : table.render(context.display), json: json)
    }

    func lists(_ input: CommandInput) async throws -> CommandOutput {
        let lists = try await tasks.lists()
        var table = Table(columns: [
            .init(title: "LIST", flexible: true), .init(title: "OPEN", alignRight: true),
            .init(title: "ALL", alignRight: true),
        ])
        table.rows = lists.map { [$0.name ?? "(default)", String($0.open), String($0.total)] }
        let json = JSONValue.object([
            "lists": .array(
                lists.map { .object(["name": .string($0.name), "open": .int($0.open), "total": .int($0.total)]) })
        ])
        return CommandOutput(text: lists.isEmpty ? "no tasks" : table.render(context.display), json: json)
    }

    func history(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let task = try await tasks.task(id: id)
        let completions = try await tasks.completions(id: id).reversed()
        var table = Table(columns: [.init(title: "DONE AT"), .init(title: "WAS DUE"), .init(title: "BY")])
        table.rows = completions.map {
            [localStamp($0.completedAt), $0.dueDate.map(HouseholdTask.day) ?? "", $0.device ?? ""]
        }
        let header = "task #\(id) \"\(TerminalText.sanitized(task.name))\"" + Self.schedule(task)
        let text =
            completions.isEmpty ? header + "\nnot done yet" : header + "\n" + table.render(context.display)
        let json = JSONValue.object([
            "id": .int(id), "name": .string(task.name),
            "history": .array(
                completions.map {
                    .object([
                        "completed_at": .string(RFC3339.string(from: $0.completedAt)),
                        "due": .string($0.dueDate.map(HouseholdTask.day)), "device": .string($0.device),
                    ])
                }),
        ])
        return CommandOutput(text: text, json: json)
    }

    func agenda(_ input: CommandInput) async throws -> CommandOutput {
        let count =
            try input.arguments.value("days").map { text in
                guard let days = Int(text), (1...366).contains(days) else {
                    throw CommandError.usage("--days: a whole number of days from 1 to 366 (got \"\(text)\")")
                }
                return days
            } ?? 7
        let today = try tasks.today()
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let end = utc.date(byAdding: .day, value: count, to: today) ?? today
        let open = try await tasks.list(.open)
        let overdue = open.filter { isOverdue($0) && ($0.dueDate ?? today) < today }
        var byDay: [Date: [HouseholdTask]] = [:]
        for task in open {
            guard var due = task.dueDate, due < end else { continue }
            var occurrence = task
            for _ in 0..<count + 1 {
                if due >= today { byDay[due, default: []].append(occurrence) }
                // A recurring chore comes again within the window.
                guard let frequency = task.frequency else { break }
                let next = frequency.nextDueDate(
                    from: task.anchorDate ?? due, after: due, completedAt: due, calendar: utc)
                guard next > due, next < end else { break }
                due = next
                occurrence.dueDate = next
            }
        }
        let days = byDay.keys.sorted()
        let presentation = DateFormatter()
        presentation.locale = context.display.locale
        presentation.timeZone = utc.timeZone
        presentation.setLocalizedDateFormatFromTemplate("EEEEdMMMM")
        var lines: [String] = []
        func line(_ task: HouseholdTask, showDay: Bool) -> String {
            let when = showDay ? dueText(task) : (task.dueTime != nil ? String(dueText(task).suffix(5)) : "")
            var text = "  #\(task.id ?? 0)  " + (when.isEmpty ? "" : when + "  ") + TerminalText.sanitized(task.name)
            if let priority = task.priority { text += "  (\(priority))" }
            let reminders = task.reminderInstants(calendar: context.calendar)
            if !reminders.isEmpty {
                text += "  ⏰ " + reminders.map { String(localStamp($0).suffix(5)) }.joined(separator: ", ")
            }
            return text
        }
        if !overdue.isEmpty {
            lines.append(context.display.styled("Overdue", "31"))
            lines += overdue.map { line($0, showDay: true) }
        }
        for day in days {
            let name = presentation.string(from: day)
            lines.append(day == today ? "Today, \(name)" : name)
            lines += (byDay[day] ?? []).map { line($0, showDay: false) }
        }
        func entry(_ task: HouseholdTask) -> JSONValue {
            var object = taskJSON(task)
            object["reminders_at"] = .array(
                task.reminderInstants(calendar: context.calendar).map { .string(RFC3339.string(from: $0)) })
            return .object(object)
        }
        let json = JSONValue.object([
            "overdue": .array(overdue.map(entry)),
            "days": .array(
                days.map { day in
                    .object(["date": .string(HouseholdTask.day(day)), "tasks": .array((byDay[day] ?? []).map(entry))])
                }),
        ])
        let text = lines.isEmpty ? "nothing due in the next \(count) days" : lines.joined(separator: "\n")
        return CommandOutput(text: text, json: json)
    }
}
