import Foundation
import Models
import Storage

/// Each side's changes in one sync (see `ChoreSyncEngine` for the order).
extension ChoreSyncRun {
    // MARK: - Their side

    /// A chore created or changed there (or our own write coming back).
    mutating func received(_ object: CalDAVObject) async throws {
        guard let text = object.icalendar else { return }
        var item = items[object.href]
        let parsed: (object: ChoreObject, raw: ChoreFields, fields: ChoreFields)
        do {
            parsed = try read(text)
        } catch {
            problem(object.href, "\(error)")
            return
        }
        let uid = parsed.object.uid
        if let other = elsewhere.first(where: { $0.uid == uid }) {
            problem(object.href, "its UID \(uid) is already the chore at \(other.href), in another collection")
            keepToken()
            return
        }
        guard object.etag != nil else {
            // Without an ETag no write to it can be conditional: it is left as it is.
            problem(object.href, "the server gives no ETag for it, so it cannot be changed safely; it is left alone")
            return
        }
        if let other = items.values.first(where: { $0.uid == uid && $0.href != object.href }) {
            guard item == nil, removedThisSync.contains(other.href) else {
                problem(object.href, "its UID \(uid) is already the chore at \(other.href)")
                keepToken()  // when the other one goes, the next sync sees this one again
                return
            }
            // Until this object's write is saved, the old href is no deletion either; a write
            // that does not happen keeps the token, so the next sync sees the move again.
            movedAway.insert(other.href)
            // Moved there (a MOVE, or deleted and written again under a new name): the same
            // chore at a new href, not a deletion and a new chore.
            items[other.href] = nil
            item = other
        }
        var synced = ChoreSyncItem(
            href: object.href, uid: uid, taskID: item?.taskID, etag: object.etag, icalendar: text)
        guard let item else {
            // New there.
            try await insert(parsed.fields, item: synced)
            return
        }
        let known = baseFields(item)
        guard let taskID = item.taskID else {
            let base = known ?? parsed.fields
            // Deleted here. Unchanged there since: the deletion goes out in step 4, at this ETag.
            guard parsed.fields != base else {
                try await write(.item(synced), counting: nil)
                return
            }
            conflict(parsed.fields.name, fields: [], "deleted here but changed on another device: kept")
            try await insert(parsed.fields, item: synced)
            return
        }
        guard let found = tasks[taskID] else {
            keepToken()  // deleted just now: the next sync sees it
            return
        }
        let local = resolved(found, base: known)
        // Without a base that can be read, the other device's version is taken as it is.
        let base = known ?? ChoreMapping.fields(of: local, base: nil)
        let mine = ChoreMapping.fields(of: local, base: base)
        if mine == parsed.fields { return try await write(.item(synced), counting: nil) }
        if mine == base {
            var (task, completion, forgetting) = ChoreMapping.task(
                parsed.fields, current: local, base: base,
                articleID: try await articleID(parsed.fields.link, current: local), now: engine.now())
            let history = ChoreMapping.history(
                parsed.fields, current: local, base: base, recorded: completion, taskID: local.task.id)
            (task.parentID, synced.pendingParent) = parent(named: parsed.fields.parentUID, for: local.task)
            let changed =
                task != local.task || completion != nil || forgetting != nil || !history.add.isEmpty
                || !history.forget.isEmpty
            try await write(
                .update(
                    task, expected: local.task, completion: completion, item: synced, forgetting: forgetting,
                    history: history.add, forgettingHistory: history.forget),
                counting: changed ? \.received : nil)
            return
        }
        // Changed on both sides.
        let (merged, fields) = ChoreMerge.merge(base: base, local: mine, remote: parsed.fields)
        if !fields.isEmpty {
            let discarded = Dictionary(
                fields.map { ($0, ChoreMerge.text(of: $0, in: mine)) }, uniquingKeysWith: { a, _ in a })
            let had = fields.map { "\($0) \(discarded[$0] ?? "")" }.joined(separator: ", ")
            conflict(
                local.task.name, fields: fields,
                "\(fields.joined(separator: ", ")) changed on both sides: the other device's change was kept; this device had \(had)",
                discarded: discarded)
        }
        var (task, completion, forgetting) = ChoreMapping.task(
            merged, current: local, base: base, articleID: try await articleID(merged.link, current: local),
            now: engine.now())
        if merged != parsed.fields {
            var patched = parsed.object
            patched.apply(
                ChoreMapping.patched(raw: parsed.raw, normalized: parsed.fields, wanted: merged), now: engine.now(),
                calendar: engine.calendar)
            let text = patched.calendar.text
            guard let written = try await upload(text, at: object.href, ifMatch: object.etag) else { return }
            guard case .stored(let etag) = written else {
                problem(object.href, "changed again on the server during the sync; the next sync merges it")
                keepToken()
                return
            }
            (synced.etag, synced.icalendar) = try await confirmed(etag, text: text, href: object.href, fields: merged)
            outcome.summary.sent += 1
        }
        let history = ChoreMapping.history(
            merged, current: local, base: base, recorded: completion, taskID: local.task.id)
        (task.parentID, synced.pendingParent) = parent(named: merged.parentUID, for: local.task)
        let changed =
            task != local.task || completion != nil || forgetting != nil || !history.add.isEmpty
            || !history.forget.isEmpty
        try await write(
            .update(
                task, expected: local.task, completion: completion, item: synced, forgetting: forgetting,
                history: history.add, forgettingHistory: history.forget),
            counting: changed ? \.received : nil)
    }

    /// A chore received that is no task here yet: the task, its completions, its parent (or the
    /// parent's UID, pending until it arrives) and its object, in one write.
    mutating func insert(_ fields: ChoreFields, item: ChoreSyncItem) async throws {
        var (task, completion) = ChoreMapping.task(
            fields, current: nil, articleID: try await articleID(fields.link, current: nil), now: engine.now())
        let history = ChoreMapping.history(fields, current: nil, base: nil, recorded: completion, taskID: nil)
        var item = item
        (task.parentID, item.pendingParent) = parent(named: fields.parentUID, for: nil)
        try await write(
            .insert(task, completion: completion, item: item, history: history.add), counting: \.received)
    }

    /// A chore deleted there.
    mutating func removedThere(_ href: String) async throws {
        guard !movedAway.contains(href), var item = items[href], item.etag != nil else { return }
        guard let taskID = item.taskID, let found = tasks[taskID] else {
            try await write(.forget(href: href), counting: nil)
            return
        }
        // On its way to another collection (a sync killed after deleting it here): gone already.
        guard scope.holds(found.task) else {
            try await write(.forget(href: href), counting: nil)
            outcome.released += 1
            return
        }
        let base = baseFields(item)
        let local = resolved(found, base: base)
        if base.map({ ChoreMapping.fields(of: local, base: $0) != $0 }) ?? true {
            conflict(local.task.name, fields: [], "deleted on another device but changed here: kept and shared again")
            item.etag = nil
            try await write(.item(item), counting: nil)
            return
        }
        try await write(.delete(expected: local.task, href: href), counting: \.deleted)
    }

    /// `local` with the UID its parent is shared under (see `ChoreMapping.withParent`).
    func resolved(_ local: ChoreSyncTask, base: ChoreFields?) -> ChoreSyncTask {
        ChoreMapping.withParent(local, base: base, items: allItems)
    }

    /// The task a received `RELATED-TO` names, and the UID to keep pending when no task here is
    /// it yet (then `task` keeps the parent it has). A chore is never its own parent.
    func parent(named uid: String?, for task: HouseholdTask?) -> (id: Int64?, pending: String?) {
        guard let uid else { return (nil, nil) }
        guard let id = allItems.first(where: { $0.uid == uid })?.taskID else { return (task?.parentID, uid) }
        return id == task?.id ? (nil, nil) : (id, nil)
    }

    // MARK: - Our side

    /// Sends a task that is new here or changed since the last sync.
    mutating func send(_ found: ChoreSyncTask, item: ChoreSyncItem?) async throws {
        guard let taskID = found.task.id else { return }
        let local = resolved(found, base: item.flatMap(baseFields))
        guard let item else {
            // New here: its object is saved before it is sent.
            let uid = UUID().uuidString
            let object = ChoreObject(
                uid: uid, fields: scope.sent(ChoreMapping.fields(of: local, base: nil)), now: engine.now(),
                calendar: engine.calendar)
            let item = ChoreSyncItem(
                href: client.href(forUID: uid), uid: uid, taskID: taskID, etag: nil, icalendar: object.calendar.text)
            guard try await repository.apply(.reserve(item), source: ChoreSyncEngine.source) == .written(taskID: taskID)
            else { return }
            items[item.href] = item
            return try await put(item, text: item.icalendar, local: local)
        }
        guard let base = baseFields(item) else { return }  // an object we cannot read stays as it is
        let mine = ChoreMapping.fields(of: local, base: base)
        guard mine != base || item.etag == nil else { return }
        guard let parsed = try? read(item.icalendar) else { return }
        var object = parsed.object
        object.apply(
            ChoreMapping.patched(raw: parsed.raw, normalized: parsed.fields, wanted: mine), now: engine.now(),
            calendar: engine.calendar)
        try await put(item, text: object.calendar.text, local: local)
    }

    /// Writes `text` for `item` (created when it has no ETag), then saves it as synced; a
    /// concurrent change is fetched and merged instead.
    mutating func put(_ item: ChoreSyncItem, text: String, local: ChoreSyncTask) async throws {
        guard let written = try await upload(text, at: item.href, ifMatch: item.etag) else { return }
        switch written {
        case .stored(let etag):
            var synced = item
            (synced.etag, synced.icalendar) = try await confirmed(
                etag, text: text, href: item.href, fields: ChoreMapping.fields(of: local, base: baseFields(item)))
            try await write(.item(synced), counting: \.sent)
        case .conflict:
            guard let current = try await fetchOne(item.href) else {
                if item.etag != nil {
                    // Deleted there while changed here: created again at the next sync.
                    var pending = item
                    pending.etag = nil
                    conflict(
                        local.task.name, fields: [], "deleted on another device but changed here: kept and shared again"
                    )
                    try await write(.item(pending), counting: nil)
                } else {
                    problem(item.href, "the server refused to create it (HTTP 412)")
                }
                return
            }
            try await received(CalDAVObject(href: item.href, etag: current.etag, icalendar: current.icalendar))
        }
    }

    /// Deletes there the object of a task that moved to a list another collection holds; that
    /// collection's sync then shares the task as a new chore (with a new UID, so that a home
    /// that sees the two collections in either order never takes one for the other). Changed
    /// there meanwhile: left for the next sync, which takes the change first.
    mutating func movedOut(_ item: ChoreSyncItem) async throws {
        guard let deleted = try await deleteThere(item, refusal: "the server refused to delete it from this collection")
        else { return }
        switch deleted {
        case .gone, .deleted:
            try await write(.forget(href: item.href), counting: nil)
            outcome.released += 1
        case .changed:
            keepToken()
        }
    }

    /// How deleting an object on the server went.
    enum Deletion {
        /// It was not there (reserved here but never sent).
        case gone
        case deleted
        /// It changed there since (HTTP 412).
        case changed
    }

    /// Deletes `item` on the server at its ETag (an object reserved but maybe never sent is
    /// looked up first: only what is there can be deleted); `nil` when the server refused this
    /// one deletion, which is reported with `refusal`.
    mutating func deleteThere(_ item: ChoreSyncItem, refusal: String) async throws -> Deletion? {
        var item = item
        if item.etag == nil || item.etag == Self.unknownETag {
            guard let current = try await fetchOne(item.href) else { return .gone }
            item.etag = current.etag
        }
        do throws(CalDAVError) {
            switch try await client.delete(at: item.href, ifMatch: item.etag) {
            case .stored: return .deleted
            case .conflict: return .changed
            }
        } catch {
            guard Self.refusedAlone(error) else { throw error }
            problem(item.href, "\(refusal): \(error)")
            return nil
        }
    }

    /// Deletes there a task deleted here.
    mutating func deletedHere(_ item: ChoreSyncItem) async throws {
        guard let deleted = try await deleteThere(item, refusal: "the server refused to delete it") else { return }
        switch deleted {
        case .gone:
            try await write(.deleted(href: item.href), counting: nil)
        case .deleted:
            try await write(.deleted(href: item.href), counting: \.deleted)
        case .changed:
            // Changed there since: it comes back here.
            guard let current = try await fetchOne(item.href) else {
                return try await write(.deleted(href: item.href), counting: nil)
            }
            try await received(CalDAVObject(href: item.href, etag: current.etag, icalendar: current.icalendar))
        }
    }
}
