import Chores
import Feed
import Foundation
import Models

/// `task add|list|done|edit|remove|undo|from-item|sync`.
struct TaskCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["task"], usage: "task add|list|done|edit|remove|undo|from-item|sync", summary: "household tasks",
            example: "task list", action: nil),
        Command(
            ["task add"], usage: "task add <name> [--due DATE] [--every N day|week|month|year] [--note TEXT]",
            summary: "add a task; recurring with --every (due today unless --due)",
            example: "task add \"Take out the bins\" --every 1 week",
            arguments: [.init(name: "name", kind: .text, count: .rest)],
            options: [.value("due"), .countAndUnit("every"), .value("note")]
        ) { try await TaskCommands(context: $0.context).add($0) },
        Command(
            ["task list"], aliases: ["task ls"], usage: "task list [--overdue|--today|--upcoming|--done|--all]",
            summary:
                "open tasks by next due date, undated last; --today is due today, --upcoming tomorrow through the next 7 days, --overdue before today, --done the done ones, --all every task",
            example: "task list --overdue", options: listFilters.map { .flag($0.0) }
        ) { try await TaskCommands(context: $0.context).list($0) },
        Command(
            ["task done"], aliases: ["task complete"], usage: "task done <ID>",
            summary: "complete a task: a recurring one moves to its next due date, a one-off one is done",
            example: "task done 1", arguments: [.init(name: "ID", kind: .taskID)]
        ) { try await TaskCommands(context: $0.context).done($0) },
        Command(
            ["task edit"],
            usage: "task edit <ID> [--name T] [--due DATE] [--every N day|week|month|year|--once] [--note TEXT]",
            summary: "change a task", example: "task edit 1 --every 2 weeks",
            arguments: [.init(name: "ID", kind: .taskID)],
            options: [.value("name"), .value("due"), .countAndUnit("every"), .flag("once"), .value("note")]
        ) { try await TaskCommands(context: $0.context).edit($0) },
        Command(
            ["task remove"], aliases: ["task rm", "task delete"], usage: "task remove <ID>", summary: "delete a task",
            example: "task remove 1", arguments: [.init(name: "ID", kind: .taskID)]
        ) { try await TaskCommands(context: $0.context).remove($0) },
        Command(["task undo"], usage: "task undo", summary: "undo the last task change", example: "task undo") {
            try await TaskCommands(context: $0.context).undo($0)
        },
        Command(
            ["task from-item"], usage: "task from-item <ID> [--due DATE]",
            summary: "turn an article into a one-off \"read later\" task", example: "task from-item 4 --due tomorrow",
            arguments: [.init(name: "ID", kind: .itemID)], options: [.value("due")]
        ) { try await TaskCommands(context: $0.context).fromItem($0) },
    ]

    /// `task list`'s flags, each a filter.
    private static let listFilters: [(String, TaskListFilter)] = [
        ("overdue", .overdue), ("today", .dueToday), ("upcoming", .upcoming), ("done", .done), ("all", .all),
    ]

    private var tasks: TaskService { context.tasks }

    private func add(_ input: CommandInput) async throws -> CommandOutput {
        let arguments = input.arguments
        let name = input.text("name") ?? ""
        let task = try await tasks.add(
            name: name, note: arguments.value("note"),
            due: try arguments.value("due").map { try Self.dueDay($0, context) },
            frequency: try arguments.value("every").map(Self.frequency))
        return CommandOutput(
            text: "added task #\(task.id ?? 0) \"\(TerminalText.sanitized(task.name))\"" + Self.schedule(task),
            json: .object(["id": .int(task.id ?? 0)]))
    }

    /// A chore's `--due`: a day. A date with a time (`2026-11-27T09:30`) is refused in words,
    /// since a chore keeps only its day and dropping the time silently would mislead.
    static func dueDay(_ text: String, _ context: CommandContext) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let time = trimmed.range(of: #"[Tt ]\d{1,2}:\d{2}(:\d{2})?$"#, options: .regularExpression) {
            let day = trimmed[..<time.lowerBound]
            throw CommandError.usage(
                "--due: a chore is due on a day, and a time is not kept; "
                    + "\"\(trimmed)\" has one (\(trimmed[time].dropFirst())): give the day alone (\(day))")
        }
        return try context.parseDate(text, "--due")
    }

    /// `2 weeks`, `week`.
    static func frequency(_ text: String) throws -> Frequency {
        try RecurrenceArgument.parse(text)
    }

    /// `, due 2026-11-21, every 1 week`.
    static func schedule(_ task: HouseholdTask) -> String {
        var parts: [String] = []
        if let due = task.dueDay { parts.append("due \(due)") }
        if let frequency = task.frequency { parts.append("\(frequency)") }
        if task.isDone { parts.append("done") }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")
    }

    private func list(_ input: CommandInput) async throws -> CommandOutput {
        let chosen = Self.listFilters.filter { input.arguments.has($0.0) }
        guard chosen.count <= 1 else {
            throw CommandError.usage("choose one of --overdue, --today, --upcoming, --done, --all")
        }
        let filter = chosen.first?.1 ?? .open
        let viewModel = TaskListViewModel(service: tasks)
        await viewModel.load(filter)
        if case .failed(let message, _) = viewModel.state { throw CommandError(code: "storage", message: message) }
        let list = viewModel.state.content?.orderedTasks ?? []
        let today = context.calendar.startOfDay(for: context.now())
        // Done tasks keep their due dates; a DONE column says which are done where both kinds
        // can appear.
        let showsDone = filter == .done || filter == .all
        var columns: [Table.Column] = [.init(title: "ID", alignRight: true), .init(title: "DUE")]
        if showsDone { columns.append(.init(title: "DONE")) }
        columns += [.init(title: "EVERY"), .init(title: "NAME", flexible: true), .init(title: "NOTE", flexible: true)]
        var table = Table(columns: columns)
        table.rows = list.map { task in
            let overdue = !task.isDone && (task.dueDate.map { $0 < today } ?? false)
            let due = task.dueDay ?? ""
            var row = [String(task.id ?? 0), overdue ? context.display.styled(due, "31") : due]
            if showsDone { row.append(task.isDone ? "✓" : "") }
            return row + [task.frequency.map { "\($0)" } ?? "", task.name, task.note ?? ""]
        }
        let json = JSONValue.object([
            "tasks": .array(
                list.map { task in
                    .object([
                        "id": .int(task.id ?? 0), "name": .string(task.name), "note": .string(task.note),
                        "due": .string(task.dueDay),
                        "every": task.frequency.map {
                            .object(["count": .int($0.count), "unit": .string($0.unit.rawValue)])
                        } ?? .null,
                        "done": .bool(task.isDone), "item_id": task.articleID.map { .int($0) } ?? .null,
                    ])
                })
        ])
        return CommandOutput(text: list.isEmpty ? "no tasks" : table.render(context.display), json: json)
    }

    private func done(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let task = try await tasks.complete(id: id)
        let text =
            task.isDone
            ? "done: task #\(id) \"\(TerminalText.sanitized(task.name))\""
            : "done: task #\(id) \"\(TerminalText.sanitized(task.name))\", next due \(task.dueDay ?? "?")"
        return CommandOutput(
            text: text,
            json: .object(["ok": .bool(true), "id": .int(id), "done": .bool(task.isDone), "due": .string(task.dueDay)]))
    }

    private func edit(_ input: CommandInput) async throws -> CommandOutput {
        let arguments = input.arguments
        let id = try input.id("ID")
        if arguments.has("every") && arguments.has("once") {
            throw CommandError.usage("choose --every or --once, not both")
        }
        var frequency = FieldChange<Frequency>.keep
        if let every = arguments.value("every") { frequency = .set(try Self.frequency(every)) }
        if arguments.has("once") { frequency = .clear }
        var due = FieldChange<Date>.keep
        if let text = arguments.value("due") {
            due =
                ["none", "never", ""].contains(text.lowercased()) ? .clear : .set(try Self.dueDay(text, context))
        }
        var note = FieldChange<String>.keep
        if let text = arguments.value("note") { note = text.isEmpty ? .clear : .set(text) }
        let task = try await tasks.edit(
            id: id, name: arguments.value("name"), note: note, due: due, frequency: frequency)
        return .ok("changed task #\(id) \"\(TerminalText.sanitized(task.name))\"" + Self.schedule(task))
    }

    private func remove(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let task = try await tasks.task(id: id)
        try await tasks.remove(id: id)
        return .ok("removed task #\(id) \"\(TerminalText.sanitized(task.name))\"")
    }

    private func undo(_ input: CommandInput) async throws -> CommandOutput {
        let undone = try await tasks.undo()
        let name = undone.task.map { " \"\(TerminalText.sanitized($0.name))\"" } ?? ""
        let what: String
        switch undone.kind {
        case .add: what = "removed the task just added"
        case .edit: what = "restored the task as it was before the edit"
        case .complete: what = "took back the completion"
        case .remove: what = "restored the removed task"
        }
        return CommandOutput(
            text: "undid \(undone.kind.rawValue) of task #\(undone.taskID)\(name): \(what)",
            json: .object(["ok": .bool(true), "undone": .string(undone.kind.rawValue), "id": .int(undone.taskID)]))
    }

    private func fromItem(_ input: CommandInput) async throws -> CommandOutput {
        let articleID = try input.id("ID")
        let due = try input.arguments.value("due").map { try Self.dueDay($0, context) }
        let article = try await context.feeds.article(id: articleID).article
        let task = try await context.tasks.add(
            name: Self.readLaterName(article, id: articleID), note: article.link?.absoluteString, due: due,
            articleID: articleID)
        return CommandOutput(
            text: "added task #\(task.id ?? 0) \"\(TerminalText.sanitized(task.name))\"" + Self.schedule(task),
            json: .object(["id": .int(task.id ?? 0)]))
    }

    /// The name of a "read later" task for an article: `Read: ` and its title (without the
    /// control characters a feed may carry and a task name may not), else its link.
    static func readLaterName(_ article: Article, id: Int64) -> String {
        let title = article.title.map {
            String(String.UnicodeScalarView($0.unicodeScalars.filter { !$0.isControlOrInvisibleFormat }))
        }
        let trimmed = title?.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = (trimmed?.isEmpty == false ? trimmed : nil) ?? article.link?.absoluteString ?? "item #\(id)"
        return "Read: \(name)"
    }
}
