public import Foundation
import Models
public import Networking

/// Fetches the configuration over HTTP through Networking: redirects followed, a conditional
/// GET, a time limit for the whole exchange, a body size cap, and one `ConfigError` for each
/// way it can fail. A `file:` URL is read directly.
public struct HTTPConfigLoader: RemoteConfigLoading {
    private let transport: any HTTPTransport
    private let retry: RetryPolicy
    private let timeout: Duration
    private let maxBodySize: Int
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - transport: what sends the requests.
    ///   - retry: retries of transient failures; none by default, since a failed refresh
    ///     keeps the last good configuration anyway.
    ///   - timeout: the longest the whole fetch may take (10 s by default).
    ///   - maxBodySize: the largest document accepted, in bytes (1 MB by default).
    ///   - sleep: waits out the time limit; tests pass one that returns at once.
    ///   - now: the clock that stamps `CachedConfig.fetchedAt`.
    public init(
        transport: any HTTPTransport, retry: RetryPolicy = .never, timeout: Duration = .seconds(10),
        maxBodySize: Int = 1_000_000,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.transport = transport
        self.retry = retry
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.sleep = sleep
        self.now = now
    }

    /// GETs `url`, conditionally when `validators` has any, and checks the answer.
    ///
    /// - Throws: `ConfigError`; see `RemoteConfigLoading`.
    public func fetch(from url: URL, validators: ConfigValidators) async throws(ConfigError) -> RemoteConfigResponse {
        if url.isFileURL { return try readFile(url) }
        let request = HTTPRequest(url: url, headers: ["Accept": "application/json"], timeout: timeout.timeInterval)
        let answer = try await send(request, validators: validators)
        guard case .response(let response, let carried) = answer else { return .notModified }
        guard response.status == 200 else { throw .httpStatus(url: url, status: response.status) }
        guard response.body.count <= maxBodySize else { throw .bodyTooLarge(url: url, limit: maxBodySize) }
        if let kind = Self.nonJSONKind(response) { throw .notJSON(url: url, contentType: kind) }
        let config = try ConfigDocument.decode(response.body, source: "remote")
        let document = CachedConfig(
            body: response.body, etag: carried.etag, lastModified: carried.lastModified, fetchedAt: now(),
            sourceURL: url)
        return .modified(config, document)
    }

    /// Reads a `file:` URL (for operators testing a document before serving it): always a new
    /// document, with no validators.
    private func readFile(_ url: URL) throws(ConfigError) -> RemoteConfigResponse {
        let data: Data
        do {
            data = try LocalFile.read(url, limit: maxBodySize)
        } catch .tooLarge {
            throw .bodyTooLarge(url: url, limit: maxBodySize)
        } catch {
            throw .unreachable(url: url, reason: error.reason)
        }
        let config = try ConfigDocument.decode(data, source: "remote")
        return .modified(config, CachedConfig(body: data, fetchedAt: now(), sourceURL: url))
    }

    /// Sends a conditional GET through an `APIClient` (redirects, retries) racing the time limit.
    private func send(_ request: HTTPRequest, validators: HTTPValidators) async throws(ConfigError)
        -> ConditionalResponse
    {
        let client = APIClient(baseURL: request.url, transport: transport, retry: retry)
        let timeout = self.timeout
        let sleep = self.sleep
        let result = await withTaskGroup(of: Result<ConditionalResponse, NetworkError>?.self) { group in
            group.addTask {
                do throws(NetworkError) {
                    return .success(try await client.conditionalGet(request, validators: validators))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                do { try await sleep(timeout) } catch { return .failure(.cancelled) }
                return nil  // the time limit won
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch result {
        case .success(let response)?: return response
        case nil: throw .timedOut(url: request.url, seconds: timeout.timeInterval)
        case .failure(let error)?: throw Self.configError(error, url: request.url, limit: maxBodySize, timeout: timeout)
        }
    }

    private static func configError(_ error: NetworkError, url: URL, limit: Int, timeout: Duration) -> ConfigError {
        switch error {
        case .timedOut: .timedOut(url: url, seconds: timeout.timeInterval)
        case .cancelled: .cancelled
        case .bodyTooLarge: .bodyTooLarge(url: url, limit: limit)
        case .status(let response): .httpStatus(url: url, status: response.status)
        case .transport(let reason): .unreachable(url: url, reason: reason)
        default: .unreachable(url: url, reason: error.errorDescription ?? "\(error)")
        }
    }

    /// `"an HTML page"` or `"text/plain"` when the answer is plainly not JSON; `nil` otherwise
    /// (a JSON body with a wrong or missing `Content-Type` is still read).
    private static func nonJSONKind(_ response: HTTPResponse) -> String? {
        let contentType = response.headers["Content-Type"]?.lowercased() ?? ""
        let firstByte = response.body.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if contentType.contains("html") || firstByte == UInt8(ascii: "<") { return "an HTML page" }
        if firstByte == nil { return "an empty body" }
        return nil
    }
}
