import Chores
import Feed
import Foundation
import Models

/// `task add|list|done|edit|remove|undo|from-item|sync`.
struct TaskCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["task"], usage: "task add|list|lists|done|history|agenda|edit|remove|undo|from-item|sync",
            summary: "household tasks",
            example: "task list", action: nil),
        Command(
            ["task add"],
            usage:
                "task add <name> [--due DATE] [--every N day|week|month|year [on DAYS]] [--note TEXT] [--priority high|medium|low] "
                + "[--list NAME] [--under ID] [--remind BEFORE]",
            summary:
                "add a task; recurring with --every (due today unless --due); --due may carry a time (friday 18:00), "
                + "--under makes it a step of another, --remind 30m reminds before the due time",
            example: "task add \"Take out the bins\" --every 1 week",
            arguments: [.init(name: "name", kind: .text, count: .rest)],
            options: [.value("due"), .countAndUnit("every"), .value("note")] + detailOptions
        ) { try await TaskCommands(context: $0.context).add($0) },
        Command(
            ["task list"], aliases: ["task ls"],
            usage: "task list [--overdue|--today|--upcoming|--done|--all] [--list [NAME]]",
            summary:
                "open tasks by next due date (then time, then priority), undated last; --today is due today, --upcoming tomorrow through the next 7 days, --overdue before today, --done every completion newest first, --all every task; --list NAME one list, --list alone the lists (task lists)",
            example: "task list --overdue",
            options: listFilters.map { .flag($0.0) } + [.optionalValue("list", .taskList)]
        ) { try await TaskCommands(context: $0.context).list($0) },
        Command(
            ["task lists"], usage: "task lists", summary: "the lists of chores, with their open and total counts",
            example: "task lists"
        ) { try await TaskCommands(context: $0.context).lists($0) },
        Command(
            ["task history"], usage: "task history <ID>",
            summary: "every completion of a chore: when, the occurrence it was due, and the home that recorded it",
            example: "task history 1", arguments: [.init(name: "ID", kind: .taskID)]
        ) { try await TaskCommands(context: $0.context).history($0) },
        Command(
            ["task agenda"], usage: "task agenda [--days N]",
            summary: "what is overdue, then what is due on each of the next 7 days (or N), with times and reminders",
            example: "task agenda", options: [.value("days")]
        ) { try await TaskCommands(context: $0.context).agenda($0) },
        Command(
            ["task done"], aliases: ["task complete"], usage: "task done <ID>",
            summary: "complete a task: a recurring one moves to its next due date, a one-off one is done",
            example: "task done 1", arguments: [.init(name: "ID", kind: .taskID)]
        ) { try await TaskCommands(context: $0.context).done($0) },
        Command(
            ["task edit"],
            usage:
                "task edit <ID> [--name T] [--due DATE] [--every N unit [on DAYS]|--once] [--note TEXT] "
                + "[--priority high|medium|low|none] [--list NAME|none] [--under ID|none] [--remind BEFORE|none]",
            summary: "change a task (none clears a priority, list, parent or reminders)",
            example: "task edit 1 --every 2 weeks",
            arguments: [.init(name: "ID", kind: .taskID)],
            options: [.value("name"), .value("due"), .countAndUnit("every"), .flag("once"), .value("note")]
                + detailOptions
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

    /// The options of a chore's details, as `task add` and `task edit` take them.
    static let detailOptions: [Command.Option] = [
        .value("priority", .choice(["high", "medium", "low", "none"])), .value("list", .taskList),
        .value("under", .taskID), .value("remind"),
    ]

    /// `task list`'s flags, each a filter.
    static let listFilters: [(String, TaskListFilter)] = [
        ("overdue", .overdue), ("today", .dueToday), ("upcoming", .upcoming), ("done", .done), ("all", .all),
    ]

    var tasks: TaskService { context.tasks }

    private func add(_ input: CommandInput) async throws -> CommandOutput {
        let arguments = input.arguments
        let name = input.text("name") ?? ""
        let due = try arguments.value("due").map { try Self.due($0, context) }
        var details = try Self.details(arguments, clearing: false)
        if let time = due?.time { details.dueTime = .set(time) }
        let task = try await tasks.add(
            name: name, note: arguments.value("note"), due: due?.day,
            frequency: try arguments.value("every").map(Self.frequency), details: details)
        return CommandOutput(
            text: "added task #\(task.id ?? 0) \"\(TerminalText.sanitized(task.name))\"" + Self.schedule(task),
            json: .object(["id": .int(task.id ?? 0)]))
    }

    /// `2 weeks`, `week`.
    static func frequency(_ text: String) throws -> Frequency {
        try RecurrenceArgument.parse(text)
    }

    /// `, due 2026-11-21, every 1 week`.
    static func schedule(_ task: HouseholdTask) -> String {
        var parts: [String] = []
        if let due = task.dueDay { parts.append("due \(due)" + (task.dueTime.map { " \($0)" } ?? "")) }
        if let frequency = task.frequency { parts.append("\(frequency)") }
        if let priority = task.priority { parts.append("\(priority) priority") }
        if let list = task.list { parts.append("on \(TerminalText.sanitized(list))") }
        if let parent = task.parentID { parts.append("a step of #\(parent)") }
        if !task.reminders.isEmpty {
            parts.append("reminders " + task.reminders.map(Self.reminderText).joined(separator: ", ") + " before")
        }
        if task.isDone { parts.append("done") }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")
    }

    private func done(_ input: CommandInput) async throws -> CommandOutput {
        let id = try input.id("ID")
        let device = await context.settingValues()["device-name"]
        let task = try await tasks.complete(id: id, device: device)
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
        var details = try Self.details(arguments, clearing: true)
        if let text = arguments.value("due") {
            if ["none", "never", ""].contains(text.lowercased()) {
                due = .clear
                details.dueTime = .clear
            } else {
                let moment = try Self.due(text, context)
                due = .set(moment.day)
                // A due date given without a time makes the chore one of the whole day.
                details.dueTime = moment.time.map { .set($0) } ?? .clear
            }
        }
        var note = FieldChange<String>.keep
        if let text = arguments.value("note") { note = text.isEmpty ? .clear : .set(text) }
        let task = try await tasks.edit(
            id: id, name: arguments.value("name"), note: note, due: due, frequency: frequency, details: details)
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
        let due = try input.arguments.value("due").map { try Self.due($0, context) }
        let article = try await context.feeds.article(id: articleID).article
        let task = try await context.tasks.add(
            name: Self.readLaterName(article, id: articleID), note: article.link?.absoluteString, due: due?.day,
            articleID: articleID, details: TaskDetailChanges(dueTime: due?.time.map { .set($0) } ?? .keep))
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
