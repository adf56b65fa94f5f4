package import Foundation
package import Models
package import Storage

/// One two-way sync of the tasks with a CalDAV collection.
///
/// 1. What changed on the server: one `sync-collection` REPORT from the last token (the whole
///    collection when there is none or the server refuses it), or, where the server lacks
///    RFC 6578, the members' ETags against the stored ones. Objects whose ETag differs are
///    fetched with `calendar-multiget`, 100 at a time.
/// 2. Each is compared with the text last synced (the base) and the task here: a change on
///    one side is taken over, a change on both is merged field by field (`ChoreMerge`) and the
///    merge written back with `If-Match`. Each task write and the object's new state go into
///    one transaction.
/// 3. Objects removed on the server remove their tasks, unless the task changed here: it is
///    then kept and sent again, and the conflict reported.
/// 4. Tasks changed here go out with `If-Match`; on 412 the object is fetched and merged.
///    New tasks first get their object saved (with its UID and href, no ETag) and then go out
///    with `If-None-Match: *`, so a sync killed in between finds the object on the server and
///    never sends the task twice. Tasks deleted here are deleted there with `If-Match`; an
///    object changed there meanwhile brings its task back.
/// 5. The collection's new token is stored last: an interrupted sync starts again from the
///    old one, and every step above is safe to repeat.
///
/// An object that cannot be read (not iCalendar, no `VTODO`, a `DUE` that is no date) is
/// reported by its href and left alone; the others sync. A failure of the server or the
/// network ends the sync with its reason; what was written by then is consistent.
package struct ChoreSyncEngine {
    package static let source = ChangeSource("chore-sync")
    /// How many objects one `calendar-multiget` asks for.
    static let fetchBatch = 100

    let repository: ChoreSyncRepository
    let client: CalDAVClient
    let calendar: Calendar
    let now: @Sendable () -> Date
    /// The tasks this collection holds.
    let scope: ChoreSyncScope

    package init(
        repository: ChoreSyncRepository, client: CalDAVClient, calendar: Calendar,
        scope: ChoreSyncScope = .everything, now: @escaping @Sendable () -> Date
    ) {
        self.scope = scope
        self.repository = repository
        self.client = client
        self.calendar = calendar
        self.now = now
    }

    /// What one sync did.
    package struct Outcome: Sendable, Equatable {
        package var summary = ChoreSyncSummary()
        /// The token to store, when the server gives one.
        package var token: String?
        /// Whether the old token must stay: a change seen in this sync was not taken (a task
        /// changed here meanwhile, an object changed there again), so the next sync must list
        /// it again.
        package var keepsToken = false
        /// Objects deleted here because their tasks moved to a list shared through another
        /// collection: the tasks go out in that collection's sync, which must run after this one.
        package var released = 0
    }

    /// Why a sync stopped.
    package enum Failure: Error, Sendable, Equatable {
        case caldav(CalDAVError)
        case storage(StorageError)
    }

    /// Syncs with the collection, starting from `token`.
    package func run(token: String?) async throws(Failure) -> Outcome {
        var run = ChoreSyncRun(engine: self)
        do {
            try await run.sync(from: token)
        } catch let error as CalDAVError {
            throw .caldav(error)
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            throw .storage(.sqlite(message: "\(error)"))
        }
        return run.outcome
    }
}
