import Chores
import Foundation
import Models

/// What an interactive session says about chores falling due: one line at the start when
/// anything is overdue or due today (`2 overdue, 3 due today`), and before each later prompt a
/// line for each chore that has fallen due since the last one (its time passed, its day began,
/// or it arrived already due, from another device or process) and each reminder whose time came.
///
/// It looks before each prompt rather than on a timer: libedit owns the terminal while a line
/// is edited, so nothing may be printed then, and a look costs one read of the open chores.
final class ChoreAlerts {
    private let tasks: TaskService
    private let calendar: Calendar
    private let now: @Sendable () -> Date
    /// What was due at the last look: each chore by id and the instant it fell due at.
    private var due: Set<DueKey> = []
    /// When the last look was (reminders between it and now are told).
    private var lastLook: Date?

    private struct DueKey: Hashable {
        var id: Int64
        var at: Date
    }

    init(tasks: TaskService, calendar: Calendar, now: @escaping @Sendable () -> Date) {
        self.tasks = tasks
        self.calendar = calendar
        self.now = now
    }

    /// The line for the start of a session (`1 overdue, 2 due today`), `nil` when nothing is;
    /// later looks tell only what changes after it.
    func start() async -> String? {
        let moment = now()
        let open = (try? await tasks.list(.open)) ?? []
        let today = (try? tasks.today()) ?? calendar.startOfDay(for: moment)
        var overdue = 0
        var dueToday = 0
        for task in open {
            guard let day = task.dueDate else { continue }
            if isOverdue(task, at: moment, today: today) {
                overdue += 1
            } else if day == today {
                dueToday += 1
            }
        }
        due = keys(open, at: moment)
        lastLook = moment
        let parts = [(overdue, "overdue"), (dueToday, "due today")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The lines for what fell due, and the reminders that came, since the last look.
    func look() async -> [String] {
        let moment = now()
        guard let open = try? await tasks.list(.open) else { return [] }
        let current = keys(open, at: moment)
        let since = lastLook ?? moment
        defer {
            due = current
            lastLook = moment
        }
        var lines: [String] = []
        let today = (try? tasks.today()) ?? calendar.startOfDay(for: moment)
        let newlyDue = Set(current.subtracting(due).map(\.id))
        for task in open {
            guard let id = task.id else { continue }
            let name = "#\(id) " + TerminalText.sanitized(task.name)
            if newlyDue.contains(id), let at = task.dueInstant(calendar: calendar) {
                let day = task.dueDate ?? today
                if let time = task.dueTime {
                    // Its time came since the last look, or it arrived after its time.
                    lines.append(
                        at > since
                            ? "due now: \(name) (\(time))"
                            : "overdue: \(name) (due \(day < today ? "\(task.dueDay ?? "?") " : "")\(time))")
                } else {
                    lines.append(day < today ? "overdue: \(name) (due \(task.dueDay ?? "?"))" : "due today: \(name)")
                }
            }
            for reminder in task.reminderInstants(calendar: calendar) where reminder > since && reminder <= moment {
                guard let at = task.dueInstant(calendar: calendar), at > moment else { continue }
                let minutes = Int((at.timeIntervalSince(moment) / 60).rounded(.up))
                lines.append(
                    "reminder: \(name), due \(task.dueTime.map { "at \($0)" } ?? "today") (in \(Self.span(minutes)))")
            }
        }
        return lines
    }

    /// The chores due by `moment`: a timed one once its time passed, one of the whole day from
    /// the start of its day.
    private func keys(_ open: [HouseholdTask], at moment: Date) -> Set<DueKey> {
        Set(
            open.compactMap { task in
                guard let id = task.id, let at = task.dueInstant(calendar: calendar), at <= moment else { return nil }
                return DueKey(id: id, at: at)
            })
    }

    private func isOverdue(_ task: HouseholdTask, at moment: Date, today: Date) -> Bool {
        guard let day = task.dueDate else { return false }
        if task.dueTime != nil, let at = task.dueInstant(calendar: calendar) { return at < moment }
        return day < today
    }

    /// `45 minutes`, `1 hour`, `2 hours 5 minutes`, `3 days`.
    static func span(_ minutes: Int) -> String {
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        if minutes < 60 { return unit(max(minutes, 1), "minute") }
        if minutes < 1440 {
            let rest = minutes % 60
            return unit(minutes / 60, "hour") + (rest > 0 ? " " + unit(rest, "minute") : "")
        }
        return unit(minutes / 1440, "day")
    }
}
