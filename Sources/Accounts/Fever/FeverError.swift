public import Foundation
public import Networking

/// What can go wrong talking to a Fever server, each as one sentence a user can act on. No
/// case carries text the server chose, so a message never shows a hostile server's bytes.
public enum FeverError: Error, Sendable, Equatable, LocalizedError {
    /// The endpoint is plain http to another machine (or not http at all): the API key, which
    /// stands for the password, would cross the network readable.
    case insecureEndpoint(URL)
    /// The server answered `auth: 0`: the user or password is wrong, or the account is off.
    case unauthorized
    /// The answer is not the Fever API's (an HTML page, JSON without `api_version`): what it
    /// was, in the reader's words.
    case notFever(String)
    /// The answer is Fever's but broken: cut off, or a field missing or of the wrong kind
    /// (the path names it: `items[3].feed_id`).
    case malformed(String)
    /// The request failed or the server answered with an error status.
    case network(NetworkError)

    public var errorDescription: String? {
        switch self {
        case .insecureEndpoint(let url):
            "refused to send the Fever API key to \(url.absoluteString): use https (plain http only to this machine)"
        case .unauthorized: "the Fever server refused the user and password (auth: 0)"
        case .notFever(let what): "the server did not answer as a Fever API: \(what)"
        case .malformed(let detail): "the Fever server sent a broken answer: \(detail)"
        case .network(let error): error.errorDescription
        }
    }
}
