import Foundation
import Models
import Storage

/// The state of one sync: the listing and the helpers here, each side's changes in
/// ChoreSyncRun+Sides.swift.
struct ChoreSyncRun {
    let engine: ChoreSyncEngine
    var outcome = ChoreSyncEngine.Outcome()
    var tasks: [Int64: ChoreSyncTask] = [:]
    /// The objects of this collection, by href.
    var items: [String: ChoreSyncItem] = [:]
    /// The objects of the other collections: a step may name a parent shared elsewhere, and a
    /// UID is one chore's wherever it is.
    var elsewhere: [ChoreSyncItem] = []
    /// The tasks this collection holds, its list spelt as the tasks spell it.
    var scope: ChoreSyncScope

    /// The hrefs the listing says are gone: an object that reappears under another href with
    /// the same UID has moved.
    var removedThisSync: Set<String> = []
    /// Old hrefs of objects that moved in this sync.
    var movedAway: Set<String> = []

    init(engine: ChoreSyncEngine) {
        self.engine = engine
        scope = engine.scope
    }

    /// Every change since `token`, asking again while the server sends them in parts.
    func allChanges(since token: String?) async throws -> CalDAVChanges? {
        guard let first = try await client.changes(since: token) else { return nil }
        // Each member counts as its last report says (changed on one page, removed on a later
        // one is removed), once.
        var changed: [String: CalDAVObject] = [:]
        var order: [String] = []
        var removed = Set<String>()
        var taken = 0
        func take(_ page: CalDAVChanges) {
            taken += page.changed.count + page.removed.count
            for object in page.changed {
                if changed.updateValue(object, forKey: object.href) == nil { order.append(object.href) }
                removed.remove(object.href)
            }
            for href in page.removed {
                changed[href] = nil
                removed.insert(href)
            }
        }
        take(first)
        var page = first
        var pages = 1
        while page.truncated {
            // A server that cannot continue what it cut short, or will not stop, is listed
            // member by member instead (one answer, its size bounded): pages are kept until the
            // last, so a server that says "truncated" without end would otherwise fill memory.
            guard pages < 1_000, taken <= Self.maxListedChanges,
                let more = try await client.changes(since: page.token), more.token != page.token
            else { return nil }
            take(more)
            page = more
            pages += 1
        }
        return CalDAVChanges(
            changed: order.compactMap { changed[$0] }, removed: removed.sorted(), token: page.token)
    }

    /// The most members (counted on every page, repeated or not) a sync takes from the pages
    /// of one cut-short report before it lists the collection instead: far more chores than
    /// any household keeps.
    static let maxListedChanges = 100_000

    var client: CalDAVClient { engine.client }
    var repository: ChoreSyncRepository { engine.repository }

    mutating func sync(from token: String?) async throws {
        try await reload()
        // 1. What changed there.
        var listed: [CalDAVObject]
        var removed: [String]
        var complete: Bool
        if let changes = try await allChanges(since: token) {
            (listed, removed, outcome.token, complete) = (changes.changed, changes.removed, changes.token, token == nil)
        } else if token != nil, let changes = try await allChanges(since: nil) {
            (listed, removed, outcome.token, complete) = (changes.changed, [], changes.token, true)
        } else {
            (listed, removed, outcome.token, complete) = (try await client.members(), [], nil, true)
        }
        // A listing naming objects elsewhere (another collection, another host, `..`) is not
        // followed: those objects are reported and never fetched, written or deleted.
        for object in listed where !client.contains(object.href) {
            problem(object.href, "it is outside the collection \(client.collection.path)")
            // A listing that cannot be read whole (a proxy that rewrites paths, a hostile
            // answer) says nothing about what is missing from it: nothing is deleted for it.
            complete = false
        }
        listed = listed.filter { client.contains($0.href) }.map {
            CalDAVObject(href: DAVHref.path(of: $0.href), etag: $0.etag, icalendar: $0.icalendar)
        }
        removed = removed.filter { client.contains($0) }.map(DAVHref.path(of:))
        if complete {
            let present = Set(listed.map(\.href))
            removed = items.values.filter { $0.etag != nil && !present.contains($0.href) }.map(\.href)
        }
        removedThisSync = Set(removed)
        let wanted = listed.filter { object in
            guard let etag = object.etag, let known = items[object.href]?.etag else { return true }
            return !EntityTag.weaklyEqual(etag, known)
        }.map(\.href)
        // 2. Their changes, merged with ours.
        for start in stride(from: 0, to: wanted.count, by: ChoreSyncEngine.fetchBatch) {
            let batch = Array(wanted[start..<min(start + ChoreSyncEngine.fetchBatch, wanted.count)])
            let asked = Set(batch)
            for object in try await client.fetch(batch) where asked.contains(DAVHref.path(of: object.href)) {
                try await received(
                    CalDAVObject(href: DAVHref.path(of: object.href), etag: object.etag, icalendar: object.icalendar))
            }
        }
        // 3. Their deletions.
        for href in removed.sorted() { try await removedThere(href) }
        // 4. Our changes, additions and deletions.
        try await reload()
        let byTask = Dictionary(items.values.compactMap { item in item.taskID.map { ($0, item) } }) { a, _ in a }
        // Tasks moved to a list another collection holds leave this one first.
        for item in items.values.sorted(by: { $0.href < $1.href }) {
            guard let id = item.taskID, let local = tasks[id], !scope.holds(local.task) else { continue }
            try await movedOut(item)
        }
        for local in tasks.values.sorted(by: { ($0.task.id ?? 0) < ($1.task.id ?? 0) })
        where scope.holds(local.task) {
            try await send(local, item: local.task.id.flatMap { byTask[$0] })
        }
        for item in items.values.sorted(by: { $0.href < $1.href }) where item.taskID == nil {
            try await deletedHere(item)
        }
    }

    /// Reads the tasks and objects again.
    mutating func reload() async throws {
        var state = try await repository.localState()
        // Hrefs stored decoded by earlier versions take the canonical form once.
        let renamed = state.items.compactMap { item in
            let canonical = DAVHref.path(of: item.href)
            return canonical == item.href ? nil : (item.href, canonical)
        }
        if !renamed.isEmpty {
            try await repository.rename(renamed)
            state = try await repository.localState()
        }
        if try await takeNewFields(state) { state = try await repository.localState() }
        if try await linkPendingParents(state) { state = try await repository.localState() }
        tasks = Dictionary(
            state.tasks.compactMap { task in task.task.id.map { ($0, task) } }, uniquingKeysWith: { a, _ in a })
        var here: [ChoreSyncItem] = []
        elsewhere = []
        for item in state.items {
            if client.holds(storedPath: item.href) { here.append(item) } else { elsewhere.append(item) }
        }
        items = Dictionary(here.map { ($0.href, $0) }, uniquingKeysWith: { a, _ in a })
        scope = engine.scope.spelled(as: state.tasks.map(\.task))
    }

    /// Every object known, this collection's as this sync has them, read in place: an array of
    /// them made for each task sent cost a quiet sync of 1,000 chores 0.1 s.
    var allItems: some Sequence<ChoreSyncItem> {
        [AnySequence(items.values), AnySequence(elsewhere)].joined()
    }

    /// Chores received as steps of a chore that had not arrived yet: each becomes a step of its
    /// parent once the parent is a task here. Returns whether anything was written.
    func linkPendingParents(_ state: (tasks: [ChoreSyncTask], items: [ChoreSyncItem])) async throws -> Bool {
        let pending = state.items.filter { $0.pendingParent != nil }
        guard !pending.isEmpty else { return false }
        var written = false
        for item in pending {
            let parent = state.items.first { $0.uid == item.pendingParent }?.taskID
            // Still to come: it stays pending, unless its own task is gone.
            guard parent != nil || item.taskID == nil else { continue }
            try await repository.linkParent(href: item.href, parentID: parent, source: ChoreSyncEngine.source)
            written = true
        }
        return written
    }

    /// Objects last synced by a version that did not read due times, priorities and reminders:
    /// their tasks take those fields from the text once (where the task has none of its own),
    /// so that the first sync after an update does not take them off the server as if they had
    /// been removed here. Returns whether anything was written.
    func takeNewFields(_ state: (tasks: [ChoreSyncTask], items: [ChoreSyncItem])) async throws -> Bool {
        let old = state.items.filter { $0.fieldsVersion < ChoreSyncItem.currentFieldsVersion }
        guard !old.isEmpty else { return false }
        let byID = Dictionary(
            state.tasks.compactMap { task in task.task.id.map { ($0, task.task) } }, uniquingKeysWith: { a, _ in a })
        for item in old {
            var taken: HouseholdTask?
            if let id = item.taskID, let local = byID[id], let base = baseFields(item) {
                var task = local
                if task.priority == nil { task.priority = base.priority }
                // A time and reminders belong to the due day they were read with.
                if local.dueDate == base.due, local.dueDate != nil {
                    if task.dueTime == nil, base.dueTime != nil {
                        task.dueTime = base.dueTime
                        task.timeZone = base.timeZone
                    }
                    if task.reminders.isEmpty { task.reminders = base.reminders }
                }
                if task != local { taken = task }
            }
            _ = try await repository.takeFields(
                href: item.href, task: taken, expected: taken == nil ? nil : item.taskID.flatMap { byID[$0] },
                source: ChoreSyncEngine.source)
        }
        return true
    }

    // MARK: - Helpers

    /// The ETag and text stored after a write: without an ETag in the answer the server
    /// changed what it stored, and the object is read back.
    func confirmed(_ etag: String?, text: String, href: String, fields: ChoreFields) async throws -> (
        String?, String
    ) {
        if let etag { return (etag, text) }
        // Taken as the base only when it is what was sent: a change made there in between (or
        // a text that cannot be read) leaves the object to be merged at the next sync.
        guard let current = try await fetchOne(href), let stored = current.icalendar,
            (try? read(stored).fields) == (try? ChoreMapping.normalized(fields))
        else { return (Self.unknownETag, text) }
        return (current.etag, stored)
    }

    /// The ETag of an object that is on the server but whose ETag is not known (the server
    /// stored something else than was sent): it never matches, so the object is fetched and
    /// merged at the next sync, and a deletion there still counts.
    static let unknownETag = ""

    /// Writes an object; `nil` when the server refused this one object (the reason is
    /// reported, and the others go on).
    mutating func upload(_ text: String, at href: String, ifMatch etag: String?) async throws -> CalDAVWrite? {
        // Without its ETag a write could only overwrite: the object is merged first.
        if etag == Self.unknownETag { return .conflict }
        do throws(CalDAVError) {
            return try await client.put(text, at: href, ifMatch: etag)
        } catch {
            guard Self.refusedAlone(error) else { throw error }
            problem(href, "the server refused it: \(error)")
            keepToken()
            return nil
        }
    }

    /// Whether the server refused a write for that object alone (403, 409, 413, 415, another
    /// 4xx) rather than for everything (a wrong password, no space, no collection).
    static func refusedAlone(_ error: CalDAVError) -> Bool {
        switch error {
        case .forbidden: true
        case .server(let status): (400..<500).contains(status) && ![408, 429].contains(status)
        default: false
        }
    }

    /// The sync's token is not stored: something seen in this sync waits for the next, which
    /// must see it again.
    mutating func keepToken() { outcome.keepsToken = true }

    /// The object at `href` as the server has it now; `nil` when it is gone (an answer about
    /// another href does not count).
    func fetchOne(_ href: String) async throws -> CalDAVObject? {
        try await client.fetch([href]).first { DAVHref.path(of: $0.href) == href }
    }

    /// An object's text read (see `ChoreMapping.read`), in the list this collection holds.
    func read(_ text: String) throws -> (object: ChoreObject, raw: ChoreFields, fields: ChoreFields) {
        var read = try ChoreMapping.read(text, calendar: engine.calendar)
        read.fields = scope.received(read.fields)
        return read
    }

    /// The fields both sides last agreed on; `nil` for an object that cannot be read.
    func baseFields(_ item: ChoreSyncItem) -> ChoreFields? {
        try? read(item.icalendar).fields
    }

    /// The article a received link points to: the task's own when the link is unchanged.
    func articleID(_ link: URL?, current: ChoreSyncTask?) async throws -> Int64? {
        if let current, current.articleLink == link || (link == nil && current.articleLink == nil) {
            return current.task.articleID
        }
        guard let link else { return nil }
        return try await repository.articleID(link: link)
    }

    mutating func problem(_ href: String, _ reason: String) {
        outcome.summary.problems.append(ChoreSyncProblem(href: href, reason: reason))
    }

    mutating func conflict(_ name: String, fields: [String], _ what: String, discarded: [String: String] = [:]) {
        outcome.summary.conflicts.append(
            ChoreSyncConflict(task: name, fields: fields, resolution: what, discarded: discarded))
    }

    /// Applies a write, counts it, and keeps the local copies in step.
    mutating func write(_ write: ChoreSyncWrite, counting counter: WritableKeyPath<ChoreSyncSummary, Int>?)
        async throws
    {
        let result = try await repository.apply(write, source: ChoreSyncEngine.source)
        guard case .written(let taskID) = result else {
            keepToken()
            return
        }
        if let counter { outcome.summary[keyPath: counter] += 1 }
        switch write {
        case .insert(_, _, var item, _), .update(_, _, _, var item, _, _, _):
            item.taskID = taskID
            items[item.href] = item
        case .item(let item), .reserve(let item): items[item.href] = item
        case .delete(_, let href), .forget(let href), .deleted(let href): items[href] = nil
        }
    }
}
