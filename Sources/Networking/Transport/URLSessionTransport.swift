public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network transport: one `URLSession` with timeouts, no `URLCache` (caching is
/// `CachingClient`'s job), no automatic redirects (the client follows them so it can count
/// them and report permanent moves), and a body size cap enforced while the body arrives.
public final class URLSessionTransport: HTTPTransport {
    /// The transport's limits.
    public struct Configuration: Sendable {
        /// Seconds to wait for a response (and between two chunks of the body).
        public var timeout: TimeInterval
        /// The largest body accepted, in bytes.
        public var maxBodySize: Int
        /// The `User-Agent` sent with every request.
        public var userAgent: String

        /// Creates a configuration; the defaults are 30 s, 10 MB and `Tidings/1.0`.
        public init(timeout: TimeInterval = 30, maxBodySize: Int = 10_000_000, userAgent: String = "Tidings/1.0") {
            self.timeout = timeout
            self.maxBodySize = maxBodySize
            self.userAgent = userAgent
        }
    }

    private let sessionHolder = Mutex<URLSession?>(nil)
    private let delegate: SessionDelegate
    private let configuration: Configuration

    /// Creates a transport; its session is made on the first request, so a program that sends
    /// none never pays for starting the HTTP stack.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        delegate = SessionDelegate()
    }

    deinit { sessionHolder.withLock { $0?.invalidateAndCancel() } }

    private var session: URLSession {
        sessionHolder.withLock { session in
            if let session { return session }
            let sessionConfiguration = URLSessionConfiguration.ephemeral
            sessionConfiguration.urlCache = nil
            sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
            sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
            sessionConfiguration.httpAdditionalHeaders = ["User-Agent": configuration.userAgent]
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let made = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
            session = made
            return made
        }
    }

    /// Sends one request; redirects come back as 3xx responses.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.timeoutInterval = request.timeout ?? configuration.timeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let task = session.dataTask(with: urlRequest)
        let delegate = self.delegate
        let limit = configuration.maxBodySize
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>) in
                delegate.start(task, limit: limit, continuation: continuation)
            }
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }
}

/// Collects each task's response and body, and finishes its continuation exactly once.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending {
        var continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>
        var limit: Int
        var response: HTTPURLResponse?
        var body = Data()
        var tooLarge = false
    }

    private let pending = Mutex<[Int: Pending]>([:])

    func start(
        _ task: URLSessionDataTask, limit: Int,
        continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>
    ) {
        pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation, limit: limit) }
        task.resume()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let expected = response.expectedContentLength
        let tooLarge = pending.withLock { pending -> Bool in
            guard var entry = pending[dataTask.taskIdentifier] else { return false }
            entry.response = response as? HTTPURLResponse
            entry.tooLarge = expected > entry.limit
            pending[dataTask.taskIdentifier] = entry
            return entry.tooLarge
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = pending.withLock { pending -> Bool in
            guard var entry = pending[dataTask.taskIdentifier] else { return false }
            entry.body.append(data)
            if entry.body.count > entry.limit {
                entry.tooLarge = true
                entry.body = Data()
            }
            pending[dataTask.taskIdentifier] = entry
            return entry.tooLarge
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // hand the 3xx to the client, which follows it itself
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if entry.tooLarge {
            entry.continuation.resume(returning: .failure(.bodyTooLarge(limit: entry.limit)))
        } else if let error {
            entry.continuation.resume(returning: .failure(Self.networkError(error)))
        } else if let response = entry.response, let url = response.url ?? task.originalRequest?.url {
            var headers = HTTPHeaders()
            for (name, value) in response.allHeaderFields {
                if let name = name as? String { headers[name] = "\(value)" }
            }
            entry.continuation.resume(
                returning: .success(
                    HTTPResponse(status: response.statusCode, headers: headers, body: entry.body, url: url)))
        } else {
            entry.continuation.resume(returning: .failure(.transport("the server sent no HTTP response")))
        }
    }

    private static func networkError(_ error: any Error) -> NetworkError {
        guard let urlError = error as? URLError else { return .transport(error.localizedDescription) }
        switch urlError.code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        default: return .transport(urlError.localizedDescription)
        }
    }
}
