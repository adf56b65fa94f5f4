public import Foundation
public import Networking
import Storage
public import Store

/// Shares the household tasks with a CalDAV calendar collection (RFC 4791), so that other
/// devices (Tidings elsewhere, Apple Reminders, tasks.org, Thunderbird) see and change the
/// same chores. See `ChoreSyncEngine` for what one sync does.
///
/// The collection's URL and user are stored; the password is asked of the credentials
/// provider when it is needed, and goes only over https or to this machine.
/// Syncs of one service run one at a time; syncs of two processes on one database are safe
/// too (writes to the server are conditional, and a task is reserved before it is sent).
public actor ChoreSyncService {
    private let repository: ChoreSyncRepository
    private let transport: any HTTPTransport
    private let passwords: CalDAVCredentialsProvider
    private let calendar: Calendar
    private let now: @Sendable () -> Date
    private let store: LocalStore
    /// Whether a sync is running, and who waits for it to end: syncs run one at a time (the
    /// actor alone would interleave them at every request).
    private var busy = false
    /// The syncs waiting for their turn, each resumed with `true` when it may try again, or
    /// `false` when its caller was cancelled meanwhile (Ctrl-C must not wait for another sync).
    private var waiting: [(id: UInt64, turn: CheckedContinuation<Bool, Never>)] = []
    private var waiterCount: UInt64 = 0

    /// - Parameters:
    ///   - store: where the tasks and the sync state live.
    ///   - transport: how the CalDAV server is reached (the composition root's).
    ///   - credentials: where passwords come from (see
    ///     `CalDAVCredentialsProvider.environmentAndNetrc`).
    ///   - calendar: the user's calendar; its time zone decides the day a UTC due time falls on.
    ///   - now: the current time (tests pass a clock they control).
    public init(
        store: LocalStore, transport: any HTTPTransport, credentials: CalDAVCredentialsProvider,
        calendar: Calendar = .current, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        repository = store.choreSync
        self.store = store
        self.transport = transport
        passwords = credentials
        self.calendar = calendar
        self.now = now
    }

    /// Checks that `collection` is a calendar that takes tasks, with the password found for
    /// `user` (or the netrc's login for the host), and remembers the collection and the user.
    /// Returns the collection's display name, if it has one.
    ///
    /// With `list`, the collection holds that list alone (as Reminders and tasks.org keep one
    /// list per collection); without, every list that has no collection of its own. Another
    /// collection or user starts over: the next sync shares every task of it with the new one.
    @discardableResult
    public func setUp(collection given: URL, user: String?, list: String? = nil) async throws(ChoreSyncError)
        -> String?
    {
        guard given.user == nil, given.password == nil else {
            throw .remote(
                "the URL carries a user or password: give the collection's URL without them (the password goes in ~/.netrc or TIDINGS_CALDAV_PASSWORD)"
            )
        }
        // A collection is a folder: `…/chores` and `…/chores/` are one collection, stored one way.
        var collection = given
        if var parts = URLComponents(url: given, resolvingAgainstBaseURL: false), !parts.path.hasSuffix("/") {
            parts.path += "/"
            collection = parts.url ?? given
        }
        let accounts = try await allAccounts()
        let name = try await listName(list, accounts: accounts)
        let path = CalDAVClient.path(of: collection)
        // Each object belongs to the collection its href lies under: two collections may not
        // share a path, nor lie one inside the other.
        for other in accounts where !Self.same(other.list, name) {
            let otherPath = CalDAVClient.path(of: other.url)
            guard !path.hasPrefix(otherPath), !otherPath.hasPrefix(path) else {
                throw .invalid(
                    "\(collection.absoluteString) \(path == otherPath ? "is" : "overlaps") the collection of \(Self.describe(other.list)): give each list a collection of its own"
                )
            }
        }
        if user == nil, passwords.hasPasswordWithoutUser, passwords.credentials(collection, nil) == nil {
            throw .remote("TIDINGS_CALDAV_PASSWORD is set but no user is named: give the user to set up")
        }
        let client = try makeClient(collection, user: user)
        let checked: CalDAVCollection
        do {
            checked = try await client.checkCollection()
        } catch {
            throw .remote(error.description)
        }
        let previous = accounts.first { Self.same($0.list, name) }
        do {
            try await repository.setAccount(
                url: collection, user: client.user, list: previous?.list ?? name,
                previousPath: previous.map { CalDAVClient.path(of: $0.url) })
        } catch {
            throw .storage(error)
        }
        return checked.displayName
    }

    /// Stops sharing: with `list`, that list's own collection is forgotten (its tasks go to
    /// the collection of every other list at the next sync, if there is one); without, every
    /// collection. The tasks stay here and on the server.
    public func stopSharing(list: String? = nil) async throws(ChoreSyncError) {
        let accounts = try await allAccounts()
        let chosen =
            if let list {
                accounts.filter { Self.same($0.list, list) }
            } else {
                accounts
            }
        if let list, chosen.isEmpty {
            throw .invalid("the list \"\(list)\" has no collection of its own")
        }
        do {
            for account in chosen {
                try await repository.removeAccount(list: account.list, path: CalDAVClient.path(of: account.url))
            }
        } catch {
            throw .storage(error)
        }
    }

    /// Whether chores are shared.
    public func isSetUp() async -> Bool {
        !((try? await repository.accounts()) ?? []).isEmpty
    }

    /// A two-way sync of every collection set up (see `ChoreSyncEngine`), each recorded with
    /// its result: the collection of every other list first, then each list's own by name.
    /// A task moved to a list that another collection holds leaves the old collection and is
    /// created in the new one in the same sync.
    ///
    /// - Throws: `.notSetUp`; `.remote` with the server's or the network's reason (what was
    ///   synced by then stays, the rest goes at the next sync; the other collections sync
    ///   first); `.storage`.
    public func sync() async throws(ChoreSyncError) -> ChoreSyncSummary {
        guard await waitForTurn() else { throw .remote("the sync was cancelled before it started") }
        busy = true
        defer {
            busy = false
            if !waiting.isEmpty { waiting.removeFirst().turn.resume(returning: true) }
        }
        let accounts = try await allAccounts()
        guard !accounts.isEmpty else { throw .notSetUp }
        let ownLists = accounts.compactMap(\.list)
        var summary = ChoreSyncSummary()
        var failure: ChoreSyncError?
        // A task that left one collection is created in another: a collection synced before
        // the one it left is synced again (at most once more).
        var round = 0
        var again = Set(accounts.map(\.url))
        while !again.isEmpty, round < 2 {
            round += 1
            var released = false
            var synced: [URL] = []
            for account in accounts where again.contains(account.url) {
                do throws(ChoreSyncError) {
                    let outcome = try await sync(account, ownLists: ownLists, alone: accounts.count == 1)
                    summary.add(outcome.summary)
                    released = released || outcome.released > 0
                } catch {
                    failure = failure ?? error
                }
                synced.append(account.url)
            }
            again = released ? Set(synced) : []
        }
        if let failure { throw failure }
        return summary
    }

    /// One collection's sync, recorded with its result.
    private func sync(_ account: ChoreSyncAccount, ownLists: [String], alone: Bool) async throws(ChoreSyncError)
        -> ChoreSyncEngine.Outcome
    {
        let outcome: ChoreSyncEngine.Outcome
        do throws(ChoreSyncError) {
            let client = try makeClient(account.url, user: account.user)
            do {
                outcome = try await ChoreSyncEngine(
                    repository: repository, client: client, calendar: calendar,
                    scope: ChoreSyncScope(list: account.list, ownLists: ownLists), now: now
                )
                .run(token: account.syncToken)
            } catch {
                switch error {
                case .caldav(let reason): throw ChoreSyncError.remote(reason.description)
                case .storage(let reason): throw ChoreSyncError.storage(reason)
                }
            }
        } catch {
            try? await repository.recordSync(
                list: account.list, token: account.syncToken, at: now(), result: "failed: \(error)")
            // With several collections, the reason names the one that failed.
            if !alone, case .remote(let reason) = error {
                throw .remote("\(Self.describe(account.list)) (\(account.url.absoluteString)): \(reason)")
            }
            throw error
        }
        do {
            try await repository.recordSync(
                list: account.list, token: outcome.keepsToken ? account.syncToken : outcome.token, at: now(),
                result: outcome.summary.line)
        } catch {
            throw .storage(error)
        }
        return outcome
    }

    private func allAccounts() async throws(ChoreSyncError) -> [ChoreSyncAccount] {
        do {
            return try await repository.accounts()
        } catch {
            throw .storage(error)
        }
    }

    /// `list` checked by the task rules, spelt as a list or collection here already spells it.
    private func listName(_ list: String?, accounts: [ChoreSyncAccount]) async throws(ChoreSyncError) -> String? {
        guard let list else { return nil }
        let checked: String
        do {
            checked = try TaskValidation.list(list)
        } catch {
            throw .invalid(error.description)
        }
        if let known = accounts.compactMap(\.list).first(where: { Self.same($0, checked) }) { return known }
        let lists: [String?]
        do {
            lists = try await store.tasks(undoLimit: 0).lists().map(\.name)
        } catch {
            throw .storage(error)
        }
        return lists.compactMap { $0 }.first { Self.same($0, checked) } ?? checked
    }

    private static func same(_ a: String?, _ b: String?) -> Bool {
        a?.lowercased() == b?.lowercased()
    }

    /// `the list "groceries"`, or `the other lists`.
    private static func describe(_ list: String?) -> String {
        list.map { "the list \"\($0)\"" } ?? "the other lists"
    }

    /// Waits while another sync runs; returns `false` at once when the caller is cancelled,
    /// whatever the running sync is waiting for (a server that answers late).
    private func waitForTurn() async -> Bool {
        while busy {
            if Task.isCancelled { return false }
            waiterCount += 1
            let id = waiterCount
            let proceed = await withTaskCancellationHandler {
                await withCheckedContinuation { (turn: CheckedContinuation<Bool, Never>) in
                    if Task.isCancelled { turn.resume(returning: false) } else { waiting.append((id, turn)) }
                }
            } onCancel: {
                Task { await self.giveUp(waiter: id) }
            }
            if !proceed { return false }
        }
        return true
    }

    /// Resumes a cancelled waiter, if it is still waiting.
    private func giveUp(waiter id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).turn.resume(returning: false)
    }

    /// Syncs in the background until cancelled: at once when chores are shared, then after
    /// task changes made here (not by a sync), `delay` after the first of them, so that a few
    /// quick edits go out together. Each sync's outcome goes to `report`.
    public func syncInBackground(
        after delay: Duration = .seconds(2),
        report: @escaping @Sendable (Result<ChoreSyncSummary, ChoreSyncError>) -> Void
    ) async {
        // Changes that arrive while a sync waits or runs count once: the sync after takes them all.
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let source = store.changes(of: .task, .excluding(ChoreSyncEngine.source))
        // The forwarder is a child task, so this returns only once it has stopped too: nothing
        // of it outlives the caller (a process that exits right after).
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in source { continuation.yield() }
                continuation.finish()
            }
            if await isSetUp() { await backgroundSync(report) }
            for await _ in changes {
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    break
                }
                guard await isSetUp() else { continue }
                await backgroundSync(report)
            }
            group.cancelAll()
        }
    }

    private func backgroundSync(_ report: @Sendable (Result<ChoreSyncSummary, ChoreSyncError>) -> Void) async {
        guard !Task.isCancelled else { return }
        do {
            report(.success(try await sync()))
        } catch {
            guard !Task.isCancelled else { return }
            report(.failure(error))
        }
    }

    /// The set-up and the last sync of the collection of every other list; `nil` when it
    /// is not set up.
    public func status() async throws(ChoreSyncError) -> ChoreSyncStatus? {
        try await statuses().first { $0.list == nil }
    }

    /// The set-up and the last sync of every collection: the collection of every other list
    /// first, then each list's own, by name.
    public func statuses() async throws(ChoreSyncError) -> [ChoreSyncStatus] {
        do {
            let accounts = try await repository.accounts()
            guard !accounts.isEmpty else { return [] }
            let (tasks, items) = try await repository.localState()
            let ownLists = accounts.compactMap(\.list)
            return accounts.map { account in
                let scope = ChoreSyncScope(list: account.list, ownLists: ownLists).spelled(as: tasks.map(\.task))
                let path = CalDAVClient.path(of: account.url)
                let here = items.filter { $0.href.hasPrefix(path) }
                let synced = Dictionary(
                    here.compactMap { item in item.taskID.map { ($0, item) } }, uniquingKeysWith: { a, _ in a })
                var pending = here.filter { $0.taskID == nil }.count
                var shared = 0
                for local in tasks {
                    guard let id = local.task.id else { continue }
                    guard let item = synced[id] else {
                        if scope.holds(local.task) { pending += 1 }
                        continue
                    }
                    guard scope.holds(local.task) else {
                        pending += 1  // moving to another collection
                        continue
                    }
                    shared += 1
                    guard let read = try? ChoreMapping.read(item.icalendar, calendar: calendar) else { continue }
                    let base = scope.received(read.fields)
                    let resolved = ChoreMapping.withParent(local, base: base, items: items)
                    if item.etag == nil || ChoreMapping.fields(of: resolved, base: base) != base { pending += 1 }
                }
                return ChoreSyncStatus(
                    list: account.list, url: account.url, user: account.user, lastSyncAt: account.lastSyncAt,
                    lastResult: account.lastResult, shared: shared, pending: pending)
            }
        } catch {
            throw .storage(error)
        }
    }

    private func makeClient(_ collection: URL, user: String?) throws(ChoreSyncError) -> CalDAVClient {
        let passwords = self.passwords
        do {
            return try CalDAVClient(collection: collection, transport: transport) {
                passwords.credentials(collection, user)
            }
        } catch {
            throw .remote(error.description)
        }
    }
}
