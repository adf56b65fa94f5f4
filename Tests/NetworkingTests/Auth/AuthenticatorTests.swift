import Foundation
import Models
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

private let base = URL(string: "https://api.example.com/")!
private let now = Date(timeIntervalSince1970: 1_795_348_800)

private struct Me: Decodable, Equatable { var name: String }

/// Counts callers as they start and lets a refresh wait until all `expected` have: a refresh
/// held that way overlaps every one of them, however the tasks happen to be scheduled.
private final class Arrivals: Sendable {
    let expected: Int
    private let count = Watched(0)

    init(_ expected: Int) { self.expected = expected }

    func arrive() { count.update { $0 += 1 } }

    /// Waits until `expected` have arrived (`.cancelled` if the waiting task is cancelled first).
    func all() async throws(NetworkError) {
        let expected = self.expected
        do { try await count.wait { $0 >= expected } } catch { throw .cancelled }
    }
}

/// Counts refresh calls and hands out numbered tokens.
private final class RefreshCounter: Sendable {
    private let count = Mutex(0)
    var calls: Int { count.withLock { $0 } }

    /// A refresh that answers once `arrivals` are all in (at once without).
    func refresh(after arrivals: Arrivals? = nil) -> @Sendable (Token) async throws(NetworkError) -> Token {
        { _ throws(NetworkError) in
            let number = self.count.withLock { value -> Int in
                value += 1
                return value
            }
            try await arrivals?.all()
            return Token(accessToken: "fresh-\(number)", refreshToken: "r", expiresAt: now.addingTimeInterval(3600))
        }
    }
}

/// A server that accepts only `valid` tokens and counts the requests it sees.
private func server(accepting valid: @escaping @Sendable (String) -> Bool, invalidBody: Bool = false)
    -> InMemoryTransport
{
    InMemoryTransport { request throws(NetworkError) in
        let token = request.headers["Authorization"]?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
        if valid(token) {
            return HTTPResponse(status: 200, body: Data(#"{"name":"Jo"}"#.utf8), url: request.url)
        }
        return invalidBody
            ? HTTPResponse(status: 403, body: Data(#"{"errors":["invalid_token"]}"#.utf8), url: request.url)
            : HTTPResponse(status: 401, url: request.url)
    }
}

@Suite("Authenticator", .timeLimit(.minutes(5)))
struct AuthenticatorTests {
    func client(_ transport: InMemoryTransport, _ authenticator: Authenticator) -> AuthenticatedClient {
        AuthenticatedClient(
            client: APIClient(baseURL: base, transport: transport, retry: .never), authenticator: authenticator)
    }

    @Test("100 concurrent requests with an expired token make exactly one refresh (50 runs)")
    func singleRefresh() async throws {
        for _ in 0..<50 {
            let counter = RefreshCounter()
            let store = InMemoryTokenStore(
                Token(accessToken: "old", refreshToken: "r", expiresAt: now.addingTimeInterval(-10)))
            // The refresh answers only once all 100 callers have asked: they all overlap it.
            let callers = Arrivals(100)
            let authenticator = Authenticator(store: store, now: { now }, refresh: counter.refresh(after: callers))
            let api = client(server { $0.hasPrefix("fresh") }, authenticator)
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        callers.arrive()
                        return (try? await api.execute(Endpoint<Me>.get("me"))) == Me(name: "Jo")
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0 })
            #expect(counter.calls == 1)
            #expect(await store.load()?.accessToken == "fresh-1")
        }
    }

    @Test("a rejected token is refreshed once and the request retried; concurrent rejections share it (50 runs)")
    func rejectedTokenRetriedOnce() async throws {
        for _ in 0..<50 {
            let counter = RefreshCounter()
            let store = InMemoryTokenStore(
                Token(accessToken: "revoked", refreshToken: "r", expiresAt: now.addingTimeInterval(3600)))
            // The refresh answers only once all 20 callers have asked: each overlaps it, rejected
            // with the revoked token or waiting for the refresh the first rejection started.
            let callers = Arrivals(20)
            let authenticator = Authenticator(store: store, now: { now }, refresh: counter.refresh(after: callers))
            let transport = server { $0.hasPrefix("fresh") }
            let api = client(transport, authenticator)
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        callers.arrive()
                        return (try? await api.execute(Endpoint<Me>.get("me"))) != nil
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0 })
            #expect(counter.calls == 1)
            // Each caller succeeds once with the new token; callers that started after the
            // refresh began never sent the revoked one.
            let tokens = transport.requests.compactMap { $0.headers["Authorization"] }
            #expect(tokens.filter { $0 == "Bearer fresh-1" }.count == 20)
            #expect(tokens.allSatisfy { $0 == "Bearer fresh-1" || $0 == "Bearer revoked" })
        }
    }

    @Test("a {errors:[invalid_token]} body counts as a rejected token")
    func invalidTokenBody() async throws {
        let counter = RefreshCounter()
        let store = InMemoryTokenStore(Token(accessToken: "revoked", refreshToken: "r"))
        let authenticator = Authenticator(store: store, now: { now }, refresh: counter.refresh())
        let me = try await client(server(accepting: { $0.hasPrefix("fresh") }, invalidBody: true), authenticator)
            .execute(Endpoint<Me>.get("me"))
        #expect(me == Me(name: "Jo"))
        #expect(counter.calls == 1)
    }

    @Test("a second rejection surfaces as an error, with no further refresh")
    func secondRejectionSurfaces() async throws {
        let counter = RefreshCounter()
        let authenticator = Authenticator(
            store: InMemoryTokenStore(Token(accessToken: "a")), now: { now }, refresh: counter.refresh())
        let transport = server { _ in false }
        await #expect(throws: NetworkError.self) {
            try await client(transport, authenticator).execute(Endpoint<Me>.get("me"))
        }
        #expect(counter.calls == 1)
        #expect(transport.requests.count == 2)
    }

    @Test("no token means loginRequired without touching the network")
    func noToken() async throws {
        let counter = RefreshCounter()
        let transport = InMemoryTransport()
        let authenticator = Authenticator(store: InMemoryTokenStore(), now: { now }, refresh: counter.refresh())
        await #expect(throws: NetworkError.loginRequired) {
            try await client(transport, authenticator).execute(Endpoint<Me>.get("me"))
        }
        #expect(transport.requests.isEmpty)
        #expect(counter.calls == 0)
    }

    @Test("a request rejected after another caller already refreshed retries with the new token, no second refresh")
    func alreadyRefreshed() async throws {
        let counter = RefreshCounter()
        let store = InMemoryTokenStore(Token(accessToken: "old", refreshToken: "r"))
        let authenticator = Authenticator(store: store, now: { now }, refresh: counter.refresh())
        // First caller: rejected, refreshes.
        let first = try await authenticator.token(replacing: Token(accessToken: "old"))
        #expect(first.accessToken == "fresh-1")
        // A slower caller whose request carried "old" gets the new token without a refresh.
        let second = try await authenticator.token(replacing: Token(accessToken: "old"))
        #expect(second.accessToken == "fresh-1")
        #expect(counter.calls == 1)
    }

    @Test("a failed refresh fails every waiter, and a refused refresh token signs the user out")
    func failedRefresh() async throws {
        for _ in 0..<50 {
            let calls = Mutex(0)
            let store = InMemoryTokenStore(
                Token(accessToken: "old", refreshToken: "r", expiresAt: now.addingTimeInterval(-1)))
            // The refresh is refused only once all 10 callers have asked: they all overlap it.
            let callers = Arrivals(10)
            let refuse: @Sendable (Token) async throws(NetworkError) -> Token = { _ throws(NetworkError) in
                calls.withLock { $0 += 1 }
                try await callers.all()
                throw .status(HTTPResponse(status: 401, url: base))
            }
            let authenticator = Authenticator(store: store, now: { now }, refresh: refuse)
            let outcomes = await withTaskGroup(of: NetworkError?.self) { group in
                for _ in 0..<10 {
                    group.addTask { () -> NetworkError? in
                        callers.arrive()
                        do throws(NetworkError) {
                            _ = try await authenticator.validToken()
                            return nil
                        } catch { return error }
                    }
                }
                return await group.reduce(into: [NetworkError?]()) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0 == NetworkError.loginRequired })
            #expect(calls.withLock { $0 } == 1)
            #expect(await store.load() == nil)
        }
    }

    @Test("too many refreshes in a short window stop with refreshLoop")
    func refreshLoop() async throws {
        let counter = RefreshCounter()
        let authenticator = Authenticator(
            store: InMemoryTokenStore(Token(accessToken: "a")), maxRefreshes: 3, window: 60, now: { now },
            refresh: counter.refresh())
        var token = Token(accessToken: "a")
        for _ in 0..<3 { token = try await authenticator.token(replacing: token) }
        await #expect(throws: NetworkError.refreshLoop) { try await authenticator.token(replacing: token) }
        #expect(counter.calls == 3)
    }

    @Test("the bearer token goes in Authorization")
    func bearerHeader() async throws {
        let transport = InMemoryTransport([.json(#"{"name":"Jo"}"#)])
        let authenticator = Authenticator(
            store: InMemoryTokenStore(Token(accessToken: "abc")), now: { now }, refresh: RefreshCounter().refresh())
        _ = try await client(transport, authenticator).execute(Endpoint<Me>.get("me"))
        #expect(transport.requests.first?.headers["authorization"] == "Bearer abc")
    }

    @Test("send signs a raw request in the token's scheme, returns any status, and retries a 401 once with a new token")
    func sendRetriesOnce() async throws {
        let refreshes = Mutex(0)
        let store = InMemoryTokenStore(Token.basic(user: "alice", password: "old"))
        let refresh: @Sendable (Token) async throws(NetworkError) -> Token = { _ throws(NetworkError) in
            refreshes.withLock { $0 += 1 }
            return Token.basic(user: "alice", password: "new")
        }
        let authenticator = Authenticator(store: store, now: { now }, refresh: refresh)
        let accepted = Token.basic(user: "alice", password: "new").authorizationHeader
        let seen = Mutex<[String]>([])
        let transport = InMemoryTransport { request throws(NetworkError) in
            let header = request.headers["Authorization"] ?? ""
            seen.withLock { $0.append(header) }
            return HTTPResponse(status: header == accepted ? 207 : 401, url: request.url)
        }
        let api = client(transport, authenticator)
        let request = HTTPRequest(method: "PROPFIND", url: base.appendingPathComponent("cal/"))
        #expect(try await api.send(request).status == 207)
        #expect(refreshes.withLock { $0 } == 1)
        #expect(seen.withLock { $0 } == [Token.basic(user: "alice", password: "old").authorizationHeader, accepted])
        #expect(accepted == "Basic " + Data("alice:new".utf8).base64EncodedString())
        // A refresh that changes nothing: the second 401 is the answer, and no third request.
        let unchanged: @Sendable (Token) async throws(NetworkError) -> Token = { _ throws(NetworkError) in
            Token.basic(user: "a", password: "x")
        }
        let stubborn = Authenticator(
            store: InMemoryTokenStore(Token.basic(user: "a", password: "x")), now: { now }, refresh: unchanged)
        let count = Mutex(0)
        let refusing = InMemoryTransport { request throws(NetworkError) in
            count.withLock { $0 += 1 }
            return HTTPResponse(status: 401, url: request.url)
        }
        #expect(try await client(refusing, stubborn).send(request).status == 401)
        #expect(count.withLock { $0 } == 2)
    }
}
