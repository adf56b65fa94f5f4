package import Foundation
package import Models
package import Storage

/// How a household task and a chore's `VTODO` fields map onto each other, and the rules that
/// make fields from other clients fit a task (a name without control characters, a note
/// without carriage returns, completion times to the second, as iCalendar stores them).
package enum ChoreMapping {
    /// The fields a task shares. A task keeps the link it was received with when it has no
    /// article here (`base`'s link): the link cannot be changed here, so it is never sent
    /// as removed.
    ///
    /// Its completion is the newest recorded here: the one both sides agreed on while nothing
    /// newer is, a newer one when the chore was done here since, the newest left when the
    /// agreed one was undone here.
    package static func fields(of local: ChoreSyncTask, base: ChoreFields?) -> ChoreFields {
        let task = local.task
        let recurring = task.frequency != nil
        let completed = local.completions.last.map(wholeSeconds)
        // A chore cancelled elsewhere stays cancelled while it is not reopened here.
        let cancelled = task.isDone && base?.isCancelled == true
        var fields = ChoreFields(
            name: task.name, note: task.note, due: task.dueDate, frequency: task.frequency,
            isDone: (!recurring || cancelled) && task.isDone, completed: recurring || task.isDone ? completed : nil,
            link: local.articleLink ?? base?.link, isCancelled: cancelled)
        fields.dueTime = task.dueDate == nil ? nil : task.dueTime
        fields.timeZone = fields.dueTime == nil ? nil : task.timeZone
        fields.priority = task.priority
        fields.reminders = task.dueDate == nil ? [] : task.reminders
        fields.parentUID = local.parentUID
        fields.list = task.list
        fields.history = ChoreCompletion.normalized(
            local.history.map { ChoreCompletion(at: $0.completedAt, device: $0.device) })
        return fields
    }

    /// Why a chore's fields cannot be a task.
    package struct Unfit: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// `fields` as a task holds them: control characters out of the name (a line break
    /// becomes a space) and the note (but tab and newline), a blank note none, completion times
    /// to the second (none for an open one-off chore), a frequency within the task rules.
    package static func normalized(_ fields: ChoreFields) throws(Unfit) -> ChoreFields {
        var result = fields
        let name = String(
            String.UnicodeScalarView(
                fields.name.unicodeScalars.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 }
                    .filter { $0.properties.generalCategory != .control }))
        do {
            result.name = try TaskValidation.name(name)
        } catch {
            throw Unfit(description: "its SUMMARY is blank")
        }
        let note = fields.note.map {
            String(
                String.UnicodeScalarView(
                    $0.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars.filter {
                        $0 == "\n" || $0 == "\t" || $0.properties.generalCategory != .control
                    }))
        }
        result.note = (try? TaskValidation.note(note)) ?? nil
        // A list name another client wrote that is no list name here is the default list.
        result.list = fields.list.flatMap {
            try? TaskValidation.list(
                String(String.UnicodeScalarView($0.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            )
        }
        if let frequency = fields.frequency {
            do {
                try TaskValidation.check(count: frequency.count, unit: frequency.unit)
            } catch {
                throw Unfit(description: "its RRULE is not a task frequency: \(error)")
            }
        }
        // A one-off chore that is not done has no completion (another client may leave its
        // COMPLETED behind when it reopens one).
        result.completed = fields.frequency == nil && !fields.isDone ? nil : fields.completed.map(wholeSeconds)
        return result
    }

    /// An object's text read: the object, its fields as written, and as a task holds them.
    ///
    /// - Throws: `ChoreObjectError` for text that is no chore, `Unfit` for fields that cannot
    ///   be a task.
    package static func read(_ text: String, calendar: Calendar) throws -> (
        object: ChoreObject, raw: ChoreFields, fields: ChoreFields
    ) {
        let object = try ChoreObject(parsing: text)
        let raw = try object.fields(calendar: calendar)
        return (object, raw, try normalized(raw))
    }

    /// `raw` (fields as another client wrote them) with the fields whose meaning `wanted`
    /// changes against `normalized` (the same fields as a task holds them): a patch then
    /// rewrites only what changed, and a note's carriage returns stay where nobody edited it.
    package static func patched(raw: ChoreFields, normalized: ChoreFields, wanted: ChoreFields) -> ChoreFields {
        var result = raw
        func take<Value: Equatable>(_ path: WritableKeyPath<ChoreFields, Value>) {
            if wanted[keyPath: path] != normalized[keyPath: path] { result[keyPath: path] = wanted[keyPath: path] }
        }
        take(\.name)
        take(\.note)
        take(\.due)
        take(\.frequency)
        take(\.isDone)
        take(\.isCancelled)
        take(\.completed)
        take(\.link)
        take(\.dueTime)
        take(\.timeZone)
        take(\.priority)
        take(\.reminders)
        take(\.history)
        take(\.parentUID)
        take(\.list)
        return result
    }

    /// The task `fields` describe, linked to `articleID`: `current` changed to them, or a new
    /// task. A completion newer
    /// than the task's last one is recorded (a recurring chore done on another device keeps its
    /// history here too); a new due date or frequency starts a new rhythm, unless the due date
    /// moved because of that completion.
    package static func task(
        _ fields: ChoreFields, current: ChoreSyncTask?, articleID: Int64?, now: Date
    ) -> (task: HouseholdTask, completion: TaskCompletion?) {
        let (task, completion, _) = task(fields, current: current, base: nil, articleID: articleID, now: now)
        return (task, completion)
    }

    /// The task `fields` describe, as above; and, when `fields` take back the recurring
    /// completion both sides had agreed on (`base`'s, undone on the other device), the one
    /// completion to forget here: that one (its second), nothing older and nothing made here
    /// since. The completion `fields` fall back to is recorded when it is not here yet.
    package static func task(
        _ fields: ChoreFields, current: ChoreSyncTask?, base: ChoreFields?, articleID: Int64?, now: Date
    ) -> (task: HouseholdTask, completion: TaskCompletion?, forgetting: Range<Date>?) {
        var task = current?.task ?? HouseholdTask(name: fields.name, createdAt: now)
        let old = task
        task.name = fields.name
        task.note = fields.note
        task.dueDate = fields.due
        task.frequency = fields.frequency
        task.isDone = (fields.frequency == nil || fields.isCancelled) && fields.isDone
        task.dueTime = fields.due == nil ? nil : fields.dueTime
        task.timeZone = task.dueTime == nil ? nil : fields.timeZone
        task.priority = fields.priority
        task.list = fields.list
        task.reminders = fields.due == nil ? [] : fields.reminders
        var forgetting: Range<Date>?
        var remaining = current?.completions.map(wholeSeconds) ?? []
        if fields.frequency != nil, let agreed = base?.completed, remaining.contains(agreed),
            fields.completed.map({ $0 < agreed }) ?? true
        {
            // Rows keep fractions of a second, the objects whole seconds.
            forgetting = agreed..<agreed.addingTimeInterval(1)
            remaining.removeAll { $0 == agreed }
        }
        var completion: TaskCompletion?
        if let completed = fields.completed, !remaining.contains(completed),
            remaining.max().map({ $0 < completed }) ?? true
        {
            completion = TaskCompletion(
                taskID: task.id, dueDate: fields.frequency == nil ? fields.due : old.dueDate, completedAt: completed,
                device: fields.history.first { $0.at == completed }?.device)
            if current == nil, fields.frequency != nil { completion?.dueDate = nil }
        }
        if fields.frequency == nil {
            task.anchorDate = nil
        } else if current == nil || old.frequency != fields.frequency
            || (old.dueDate != fields.due && completion == nil)
        {
            task.anchorDate = fields.due
        }
        task.articleID = articleID
        if current == nil || task != old || completion != nil || forgetting != nil { task.modifiedAt = now }
        return (task, completion, forgetting)
    }

    /// `local` with the UID its parent is shared under: its parent's object's, or, for a task
    /// without a parent here whose object names one no task here is (not received yet, or not a
    /// chore this home can read), that one, kept rather than taken off.
    package static func withParent(_ local: ChoreSyncTask, base: ChoreFields?, items: some Sequence<ChoreSyncItem>)
        -> ChoreSyncTask
    {
        var local = local
        if let parentID = local.task.parentID {
            // A parent not shared yet (new, or on its way to another collection) keeps the UID
            // the step last named until it has one: a step never loses its parent in between.
            local.parentUID = items.first { $0.taskID == parentID }?.uid ?? base?.parentUID
        } else if let uid = base?.parentUID, !items.contains(where: { $0.uid == uid && $0.taskID != nil }) {
            local.parentUID = uid
        } else {
            local.parentUID = nil
        }
        return local
    }

    /// What `fields`' history changes here: the completions other homes recorded that are not
    /// here yet (but `recorded`, which `task` records already), and the seconds of those here
    /// that `base` had and `fields` no longer has (taken back on another device; not one that
    /// only fell out of the newest `ChoreCompletion.kept`).
    package static func history(
        _ fields: ChoreFields, current: ChoreSyncTask?, base: ChoreFields?, recorded: TaskCompletion?, taskID: Int64?
    ) -> (add: [TaskCompletion], forget: [Date]) {
        let here = Set((current?.history ?? []).map { wholeSeconds($0.completedAt) })
        let skipped = recorded.map { wholeSeconds($0.completedAt) }
        let add = fields.history.filter { !here.contains($0.at) && $0.at != skipped }.map {
            TaskCompletion(taskID: taskID, dueDate: nil, completedAt: $0.at, device: $0.device)
        }
        guard let base else { return (add, []) }
        let there = Set(fields.history.map(\.at))
        let oldest = fields.history.count >= ChoreCompletion.kept ? fields.history.first?.at : nil
        let forget = base.history.map(\.at).filter { second in
            here.contains(second) && !there.contains(second) && (oldest.map { second > $0 } ?? true)
        }
        return (add, forget)
    }

    /// `date` without its fraction of a second.
    package static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
