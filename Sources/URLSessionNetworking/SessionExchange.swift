import Foundation
import Networking
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's state between `URLSessionTransport.send` and the session's delegate: the
/// response and the body so far, and the one outcome the waiting caller gets. The first outcome
/// wins: a cancellation, the deadline or the cap can decide before the session reports the end
/// of the task, and the caller resumes at once.
final class SessionExchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>?
        var outcome: Result<HTTPResponse, NetworkError>?
        var response: HTTPURLResponse?
        var body = Data()
    }

    private let url: URL
    private let maxBodySize: Int
    private let state = Mutex(State())

    /// An exchange for a request to `url` whose body may hold `maxBodySize` bytes.
    init(url: URL, maxBodySize: Int) {
        self.url = url
        self.maxBodySize = maxBodySize
    }

    /// Gives the outcome to `continuation`, now if it is already known.
    func wait(_ continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>) {
        let outcome = state.withLock { state in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let outcome { continuation.resume(returning: outcome) }
    }

    /// Decides the outcome, unless one was decided already.
    func finish(_ outcome: Result<HTTPResponse, NetworkError>) {
        let continuation = state.withLock { state -> CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            state.body = Data()
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }

    /// Keeps the response; `false` (stop the task) when the exchange is over, or when the
    /// response declares an uncompressed body larger than the cap.
    func receive(_ response: URLResponse) -> Bool {
        let declaredTooLarge =
            response.expectedContentLength > maxBodySize
            && ((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding") ?? "identity")
                .lowercased() == "identity"
        if declaredTooLarge {
            finish(.failure(.bodyTooLarge(limit: maxBodySize)))
            return false
        }
        return state.withLock { state in
            state.response = response as? HTTPURLResponse
            return state.outcome == nil
        }
    }

    /// Appends a piece of the body; `false` (stop the task) when the exchange is over, or when
    /// the body has just passed the cap.
    func receive(_ data: Data) -> Bool {
        let fits = state.withLock { state -> Bool? in
            guard state.outcome == nil else { return nil }
            guard state.body.count + data.count <= maxBodySize else { return false }
            state.body.append(data)
            return true
        }
        switch fits {
        case true?: return true
        case false?:
            finish(.failure(.bodyTooLarge(limit: maxBodySize)))
            return false
        case nil: return false
        }
    }

    /// The session's report that the task ended: the response with the body received, or the
    /// error as a `NetworkError`. A redirect response reaches only this point (the session does
    /// not hand a refused redirect's response to the data delegate), so `response` is the task's.
    func complete(response: URLResponse?, error: (any Error)?) {
        if let error {
            finish(.failure(Self.networkError(error)))
            return
        }
        let received = state.withLock { state in
            (state.response ?? (response as? HTTPURLResponse), state.body)
        }
        guard let http = received.0 else {
            finish(.failure(.transport("the server's answer is not an HTTP response")))
            return
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers["\(name)"] = "\(value)"
        }
        finish(.success(HTTPResponse(status: http.statusCode, headers: headers, body: received.1, url: url)))
    }

    /// `error` as the transport contract names it.
    static func networkError(_ error: any Error) -> NetworkError {
        guard let urlError = error as? URLError else { return .transport(error.localizedDescription) }
        switch urlError.code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .cannotConnectToHost: return .transport("could not connect to the server")
        case .cannotFindHost, .dnsLookupFailed: return .transport("the server's name could not be resolved")
        case .networkConnectionLost: return .transport("the connection was lost")
        case .notConnectedToInternet: return .transport("no network connection")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .transport("the secure connection failed (\(urlError.localizedDescription))")
        default: return .transport(urlError.localizedDescription)
        }
    }
}
