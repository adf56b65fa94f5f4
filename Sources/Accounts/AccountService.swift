public import Foundation
public import Networking
public import Store
internal import Storage

/// A feed account as an app shows it.
public struct FeedAccount: Sendable, Equatable {
    public var id: Int64
    /// The protocol (`fever`).
    public var kind: String
    public var endpoint: URL
    public var user: String
    /// How many feeds the server lists for it.
    public var feeds: Int
    /// Marks made here and not yet sent.
    public var pendingMarks: Int
    /// When the last complete sync ended.
    public var syncedAt: Date?
    /// Why the last sync stopped, if it did.
    public var problem: String?
}

/// Why an account could not be added, found or synced.
public enum AccountError: Error, Sendable, Equatable, LocalizedError {
    case unsupportedKind(String)
    case notFound(id: Int64)
    /// No password for the user at the server (`~/.netrc`, `$TIDINGS_FEVER_PASSWORD`).
    case noPassword(endpoint: URL, user: String?)
    case alreadyAdded(user: String, endpoint: URL)
    case server(FeverError)
    case sync(AccountSyncError)
    case storage(String)

    public var errorDescription: String? {
        switch self {
        case .unsupportedKind(let kind): "no account of the kind \"\(kind)\": the kind is fever"
        case .notFound(let id): "no account #\(id)"
        case .noPassword(let endpoint, let user):
            "no password for \(user.map { "\($0) at " } ?? "")\(endpoint.host ?? endpoint.absoluteString): put it in ~/.netrc (machine \(endpoint.host ?? "HOST") login USER password …) or in $\(FeverCredentials.passwordVariable)"
        case .alreadyAdded(let user, let endpoint): "\(user) at \(endpoint.absoluteString) is an account already"
        case .server(let error): error.errorDescription
        case .sync(let error): error.errorDescription
        case .storage(let reason): reason
        }
    }
}

/// Feed accounts for an app: adding one (checked with its server first), listing, removing,
/// and syncing them into the app's store.
public struct AccountService: Sendable {
    let store: LocalStore
    let transport: any HTTPTransport
    let credentials: FeverCredentialsProvider
    let now: @Sendable () -> Date

    public init(
        store: LocalStore, transport: any HTTPTransport, credentials: FeverCredentialsProvider,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.transport = transport
        self.credentials = credentials
        self.now = now
    }

    /// Adds the account of `user` (the netrc's login for the host when `nil`) at `endpoint`,
    /// once its server accepted the credentials. Nothing is synced yet.
    public func add(kind: String, endpoint: URL, user: String?) async throws(AccountError) -> FeedAccount {
        guard kind.lowercased() == "fever" else { throw .unsupportedKind(kind) }
        let client = try client(endpoint: endpoint, user: user)
        do {
            try await client.client.verify()
        } catch {
            throw .server(error)
        }
        do {
            let record = try await store.accounts.add(
                kind: "fever", endpoint: endpoint, user: client.user, now: now())
            return FeedAccount(
                id: record.id, kind: record.kind, endpoint: record.endpoint, user: record.user, feeds: 0,
                pendingMarks: 0, syncedAt: nil, problem: nil)
        } catch .duplicate {
            throw .alreadyAdded(user: client.user, endpoint: endpoint)
        } catch {
            throw .storage(error.errorDescription ?? "\(error)")
        }
    }

    /// Every account with its feeds, pending marks and last sync.
    public func accounts() async throws(AccountError) -> [FeedAccount] {
        do {
            let feeds = try await store.accounts.feedCounts()
            let marks = try await store.accounts.pendingMarkCounts()
            return try await store.accounts.all().map { record in
                FeedAccount(
                    id: record.id, kind: record.kind, endpoint: record.endpoint, user: record.user,
                    feeds: feeds[record.id] ?? 0, pendingMarks: marks[record.id] ?? 0, syncedAt: record.syncedAt,
                    problem: record.problem)
            }
        } catch {
            throw .storage(error.errorDescription ?? "\(error)")
        }
    }

    /// Removes an account with its feeds and their articles (the server keeps them).
    public func remove(id: Int64) async throws(AccountError) {
        let removed: Bool
        do {
            removed = try await store.accounts.remove(id: id)
        } catch {
            throw .storage(error.errorDescription ?? "\(error)")
        }
        if !removed { throw .notFound(id: id) }
    }

    /// Syncs account `id` (every account when `nil`), one after the other; each account's
    /// outcome, a failure of one not stopping the next.
    public func sync(id: Int64? = nil) async throws(AccountError)
        -> [(account: FeedAccount, result: Result<AccountSyncSummary, AccountError>)]
    {
        var chosen = try await accounts()
        if let id {
            chosen = chosen.filter { $0.id == id }
            if chosen.isEmpty { throw .notFound(id: id) }
        }
        var results: [(FeedAccount, Result<AccountSyncSummary, AccountError>)] = []
        for account in chosen {
            results.append((account, await sync(account)))
        }
        return results
    }

    /// Syncs every account now, then again `delay` after the user marks an account's items
    /// (while marks wait to be sent), until cancelled; `report` gets each account's outcome.
    /// For an interactive session: its prompt never waits for a sync.
    public func syncInBackground(
        after delay: Duration = .seconds(2),
        report: @escaping @Sendable (FeedAccount, Result<AccountSyncSummary, AccountError>) -> Void
    ) async {
        // Marks that arrive while a sync waits or runs count once: the sync after takes them all.
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let source = store.changes(of: .article, .only(.user))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in source { continuation.yield() }
                continuation.finish()
            }
            await backgroundSync(onlyWithMarks: false, report)
            for await _ in changes {
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    break
                }
                await backgroundSync(onlyWithMarks: true, report)
            }
            group.cancelAll()
        }
    }

    private func backgroundSync(
        onlyWithMarks: Bool, _ report: @Sendable (FeedAccount, Result<AccountSyncSummary, AccountError>) -> Void
    ) async {
        guard !Task.isCancelled, let accounts = try? await accounts() else { return }
        for account in accounts where !onlyWithMarks || account.pendingMarks > 0 {
            let result = await sync(account)
            guard !Task.isCancelled else { return }
            report(account, result)
        }
    }

    private func sync(_ account: FeedAccount) async -> Result<AccountSyncSummary, AccountError> {
        let client: (client: FeverClient, user: String)
        do {
            client = try self.client(endpoint: account.endpoint, user: account.user)
        } catch {
            try? await store.accounts.recordSync(
                account: account.id, at: now(), problem: error.errorDescription ?? "\(error)")
            return .failure(error)
        }
        let engine = FeverSync(
            client: client.client, store: LocalAccountStore(store: store, accountID: account.id), now: now)
        do {
            return .success(try await engine.sync())
        } catch {
            return .failure(.sync(error))
        }
    }

    private func client(endpoint: URL, user: String?) throws(AccountError) -> (client: FeverClient, user: String) {
        guard FeverClient.mayCarryKey(endpoint) else { throw .server(.insecureEndpoint(endpoint)) }
        guard let found = credentials.credentials(endpoint, user) else {
            throw .noPassword(endpoint: endpoint, user: user)
        }
        do {
            return (try FeverClient(endpoint: endpoint, credentials: found, transport: transport), found.user)
        } catch {
            throw .server(error)
        }
    }
}
