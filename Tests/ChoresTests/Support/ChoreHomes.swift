import CalDAVTestSupport
import DefaultTransport
import Foundation
import Networking
import Store
import Testing

@testable import Chores

/// One household's Tidings for the sync tests: its own database, task service and sync
/// service, on a fixed clock (2026-11-23 12:00 UTC) in UTC.
struct ChoreHome: Sendable {
    static let now = Date(timeIntervalSince1970: 1_795_435_200)
    static let utc = ChoreObjectTests.calendar()

    let store: LocalStore
    let tasks: TaskService
    let sync: ChoreSyncService

    /// A home syncing with `server`'s user, its password in the environment (or `password`).
    init(
        _ server: CalDAVTestServer, transport: any HTTPTransport = makeDefaultTransport(), password: String? = nil,
        store: LocalStore? = nil, clock: @escaping @Sendable () -> Date = { ChoreHome.now }
    ) throws {
        let store = try store ?? LocalStore.inMemory()
        self.store = store
        tasks = TaskService(store: store, now: clock, calendar: Self.utc)
        sync = ChoreSyncService(
            store: store, transport: transport,
            credentials: .environmentAndNetrc(["TIDINGS_CALDAV_PASSWORD": password ?? server.password], netrc: nil),
            calendar: Self.utc, now: clock)
    }

    /// Sets up `collection` for the server's user.
    func setUp(_ server: CalDAVTestServer, _ collection: URL) async throws {
        try await sync.setUp(collection: collection, user: server.user)
    }

    /// `task list --all`, as comparable values: name, note, due day, frequency, done.
    func list() async throws -> [Listed] {
        try await tasks.list(.all).map {
            Listed(name: $0.name, note: $0.note, due: $0.dueDay, every: $0.frequency.map { "\($0)" }, done: $0.isDone)
        }
    }

    /// The task named `name`.
    func task(_ name: String) async throws -> HouseholdTask {
        try #require(try await tasks.list(.all).first { $0.name == name }, "no task \(name)")
    }

    struct Listed: Hashable, CustomStringConvertible {
        var name: String
        var note: String?
        var due: String?
        var every: String?
        var done: Bool
        var description: String { "\(name)|\(note ?? "-")|\(due ?? "-")|\(every ?? "-")|\(done)" }
    }
}

/// Two homes sharing a new calendar `chores` on `server`, and its URL.
func twoHomes(_ server: CalDAVTestServer) async throws -> (ChoreHome, ChoreHome, URL) {
    let chores = try server.makeCalendar("chores")
    let (a, b) = (try ChoreHome(server), try ChoreHome(server))
    try await a.setUp(server, chores)
    try await b.setUp(server, chores)
    return (a, b, chores)
}

/// The real transport to a real server, with what the tests make of the network in between:
/// every request counted, and a rule that may answer in the server's place (a status it does
/// not give, such as 507), or lose the connection before the request reaches the server or
/// after the server has acted on it but before its answer arrives.
final class ShapedTransport: HTTPTransport, @unchecked Sendable {
    enum Action: Sendable {
        case pass
        case answer(Int)
        case answerWith(status: Int, body: String)
        case redirect(String)
        case loseBefore
        case loseAfter
        /// Sent on as `request` makes it, and answered as `response` makes the server's answer:
        /// a server that names or tags its objects differently from the real one.
        case rewrite(
            request: @Sendable (HTTPRequest) -> HTTPRequest, response: @Sendable (HTTPResponse) -> HTTPResponse)
    }

    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var rule: @Sendable (HTTPRequest, Int) -> Action
    private var sent: [HTTPRequest] = []

    init(_ rule: @escaping @Sendable (HTTPRequest, Int) -> Action = { _, _ in .pass }) {
        inner = makeDefaultTransport()
        self.rule = rule
    }

    /// The requests so far (method and path).
    var requests: [String] {
        lock.withLock { sent.map { "\($0.method.rawValue) \($0.url.path)" } }
    }

    /// The bodies of the requests so far.
    var bodies: [String] {
        lock.withLock { sent.map { String(decoding: $0.body ?? Data(), as: UTF8.self) } }
    }

    /// Forgets the requests and takes a new rule.
    func reset(_ rule: @escaping @Sendable (HTTPRequest, Int) -> Action = { _, _ in .pass }) {
        lock.withLock {
            sent = []
            self.rule = rule
        }
    }

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        let action = lock.withLock {
            sent.append(request)
            return rule(request, sent.count)
        }
        switch action {
        case .pass: return try await inner.send(request)
        case .answer(let status): return HTTPResponse(status: status, url: request.url)
        case .redirect(let location):
            return HTTPResponse(status: 307, headers: ["Location": location], url: request.url)
        case .answerWith(let status, let body):
            return HTTPResponse(status: status, body: Data(body.utf8), url: request.url)
        case .loseBefore: throw .transport("connection lost (test)")
        case .loseAfter:
            _ = try await inner.send(request)
            throw .transport("connection lost (test)")
        case .rewrite(let changed, let answer):
            return answer(try await inner.send(changed(request)))
        }
    }
}
