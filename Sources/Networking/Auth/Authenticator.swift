public import Foundation
public import Models

/// Where the signed-in user's token is kept (the keychain on Apple platforms, a file here).
public protocol TokenStore: Sendable {
    /// The stored token, if the user is signed in.
    func load() async -> Token?
    /// Replaces the stored token; `nil` signs the user out.
    func save(_ token: Token?) async
}

/// A token store in memory, for tests and previews.
public actor InMemoryTokenStore: TokenStore {
    private var token: Token?

    /// Creates a store holding `token`.
    public init(_ token: Token? = nil) { self.token = token }

    /// The stored token.
    public func load() -> Token? { token }

    /// Replaces the stored token.
    public func save(_ token: Token?) { self.token = token }
}

/// Hands out valid tokens and refreshes them, never twice at once.
///
/// Any number of callers needing a refresh share one refresh: the first starts it and every
/// other awaits the same result, success or failure. A caller whose request was rejected
/// with a token that has since been replaced gets the new token without another refresh.
/// More than `maxRefreshes` refreshes within `window` stop with `.refreshLoop`.
public actor Authenticator {
    private let store: any TokenStore
    private let refresh: @Sendable (Token) async throws(NetworkError) -> Token
    private let now: @Sendable () -> Date
    private let maxRefreshes: Int
    private let window: TimeInterval
    private var refreshTask: Task<Token, any Error>?
    private var refreshTimes: [Date] = []
    /// The token in force, read from the store once and then kept here, so deciding whether a
    /// rejected token was already replaced never waits on the store.
    private var current: Token?
    private var hasLoaded = false

    /// - Parameters:
    ///   - store: where the token is kept between runs.
    ///   - maxRefreshes: refreshes allowed within `window` seconds before `.refreshLoop`.
    ///   - window: the seconds over which refreshes are counted.
    ///   - now: the time the window is measured in (tests pass a clock they move).
    ///   - refresh: exchanges a token's refresh token for a new token (one network call).
    public init(
        store: any TokenStore, maxRefreshes: Int = 3, window: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() },
        refresh: @escaping @Sendable (Token) async throws(NetworkError) -> Token
    ) {
        self.store = store
        self.refresh = refresh
        self.now = now
        self.maxRefreshes = maxRefreshes
        self.window = window
    }

    /// A token that is not about to expire, refreshing first when needed.
    ///
    /// - Throws: `.loginRequired` when there is no token (without touching the network),
    ///   the refresh's error, or `.refreshLoop`.
    public func validToken() async throws(NetworkError) -> Token {
        if let refreshTask { return try await Self.value(of: refreshTask) }
        guard let token = await currentToken() else { throw .loginRequired }
        guard token.isExpired(at: now()) else { return token }
        return try await refreshed(token)
    }

    /// A token to retry with after the server rejected `rejected`: the current one if another
    /// caller already replaced it, else a forced refresh (shared with concurrent callers).
    public func token(replacing rejected: Token) async throws(NetworkError) -> Token {
        if let refreshTask { return try await Self.value(of: refreshTask) }
        guard let token = await currentToken() else { throw .loginRequired }
        if token.accessToken != rejected.accessToken { return token }
        return try await refreshed(token)
    }

    /// Signs the user out.
    public func signOut() async {
        refreshTask?.cancel()
        refreshTask = nil
        current = nil
        hasLoaded = true
        await store.save(nil)
    }

    private func currentToken() async -> Token? {
        if !hasLoaded {
            let stored = await store.load()
            if !hasLoaded {
                current = stored
                hasLoaded = true
            }
        }
        return current
    }

    private func refreshed(_ token: Token) async throws(NetworkError) -> Token {
        if let refreshTask { return try await Self.value(of: refreshTask) }
        let date = now()
        refreshTimes = refreshTimes.filter { date.timeIntervalSince($0) < window }
        guard refreshTimes.count < maxRefreshes else { throw .refreshLoop }
        refreshTimes.append(date)

        let refresh = self.refresh
        let store = self.store
        let task = Task<Token, any Error> {
            do throws(NetworkError) {
                let fresh = try await refresh(token)
                await store.save(fresh)
                return fresh
            } catch {
                if case .status(let response) = error, [400, 401].contains(response.status) {
                    await store.save(nil)  // the refresh token itself was refused
                    throw NetworkError.loginRequired
                }
                throw error
            }
        }
        refreshTask = task
        defer { refreshTask = nil }
        do throws(NetworkError) {
            let fresh = try await Self.value(of: task)
            current = fresh
            return fresh
        } catch {
            if case .loginRequired = error { current = nil }
            throw error
        }
    }

    private static func value(of task: Task<Token, any Error>) async throws(NetworkError) -> Token {
        do {
            return try await task.value
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .transport(error.localizedDescription)
        }
    }
}
