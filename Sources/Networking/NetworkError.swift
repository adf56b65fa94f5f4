public import Foundation

/// Everything that can go wrong between building a request and decoding its response.
public enum NetworkError: Error, Sendable, Equatable, LocalizedError {
    /// The pieces of a request did not form a URL.
    case invalidURL(String)
    /// The request never got a response (no connection, DNS, TLS, reset); the reason as the
    /// system gave it.
    case transport(String)
    /// No response arrived within the time limit.
    case timedOut
    /// The server answered with a status the caller did not accept; the whole response is kept.
    case status(HTTPResponse)
    /// The body is not the expected JSON; the message names the path (`items[3].title: …`).
    case decoding(String)
    case cancelled
    /// The body is larger than the limit (in bytes).
    case bodyTooLarge(limit: Int)
    /// Redirects went on past the limit, or in a loop.
    case tooManyRedirects(URL)
    /// A URL (the request's, or a redirect's `Location`) names a scheme other than http or
    /// https; nothing was sent to it. Only http and https are ever fetched for a remote answer.
    case unsupportedScheme(String, URL)
    /// There is no token: the user must sign in.
    case loginRequired
    /// Tokens were refreshed too often in a short time; something rejects every new token.
    case refreshLoop
    /// A download ended at another length than the server (or the document that linked it)
    /// announced, in bytes; what arrived is kept, to be resumed.
    case lengthMismatch(expected: Int64, received: Int64)
    /// The server answered a request to resume a download with bytes that do not follow the
    /// partial file (its `Content-Range` as sent).
    case unexpectedRange(String)
    /// A download's local file could not be written: the path and the system's words.
    case file(path: String, reason: String)
    /// A request header whose name is not an HTTP token, or whose value holds a line break, a
    /// NUL or another control character: sent, it would end the field and begin another (a
    /// header, or a whole request, smuggled in by whoever chose the value). Nothing was sent.
    case invalidHeader(String)

    /// A sentence a user can act on.
    public var errorDescription: String? {
        switch self {
        case .invalidURL(let text): "\"\(text)\" is not a valid URL"
        case .transport(let reason): "the request failed: \(reason)"
        case .timedOut: "the server did not answer in time"
        case .status(let response): "the server answered HTTP \(response.status)"
        case .decoding(let detail): "the response could not be read: \(detail)"
        case .cancelled: "the request was cancelled"
        case .bodyTooLarge(let limit): "the response is larger than \(limit / 1_000_000) MB"
        case .tooManyRedirects(let url): "too many redirects (last to \(url.absoluteString))"
        case .unsupportedScheme(let scheme, let url):
            "refused to fetch \(url.absoluteString): the scheme \"\(scheme)\" is not http or https"
        case .loginRequired: "sign in first"
        case .refreshLoop: "the server keeps rejecting new sign-in tokens; sign in again"
        case .lengthMismatch(let expected, let received):
            "the download ended at \(received) bytes, but \(expected) were announced"
        case .unexpectedRange(let range):
            "the server sent a part that does not continue the partial file (Content-Range: \(range))"
        case .file(let path, let reason): "cannot write \(path): \(reason)"
        case .invalidHeader(let name):
            "refused to send the header \"\(name)\": it holds a line break or a control character"
        }
    }

    /// The lower-cased scheme of `url` when it is not http or https (`nil` for a web URL): every
    /// transport refuses such a URL with `.unsupportedScheme` before sending anything.
    package static func unfetchableScheme(_ url: URL) -> String? {
        let scheme = url.scheme?.lowercased() ?? ""
        return scheme == "http" || scheme == "https" ? nil : (scheme.isEmpty ? "(none)" : scheme)
    }

    /// The first of `request`'s header fields no transport may send (see `.invalidHeader`), by
    /// its name (escaped when the name is the trouble); `nil` when every field may be sent.
    /// Every transport refuses such a request before sending anything: values come from
    /// servers too (an entity tag read from a CalDAV listing, a validator kept from a feed).
    package static func unsendableHeader(_ request: HTTPRequest) -> String? {
        for (name, value) in request.headers {
            let isToken =
                !name.isEmpty
                && name.utf8.allSatisfy { byte in
                    (0x21...0x7E).contains(byte) && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
                }
            guard isToken else { return String(reflecting: name).dropFirst().dropLast().description }
            // Field values: visible characters, spaces, tabs and bytes above ASCII (RFC 9110 §5.5).
            if value.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) { return name }
        }
        return nil
    }

    /// Whether trying again later may succeed: timeouts, connection failures and the statuses
    /// 408, 429, 500, 502, 503 and 504.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .transport: true
        case .status(let response): [408, 429, 500, 502, 503, 504].contains(response.status)
        default: false
        }
    }
}
