import DefaultTransport
import Foundation
import Networking
import Testing
import URLSessionNetworking

/// The network transports the conformance suites run against: every one of them must keep the
/// same contract (`HTTPTransport`).
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// libcurl (Linux only).
    case curl
    /// Foundation's `URLSession`.
    case urlSession

    /// The kinds this platform has.
    static var available: [TransportKind] {
        #if os(Linux)
            allCases
        #else
            [.urlSession]
        #endif
    }

    var testDescription: String { rawValue }

    /// A transport of this kind.
    func make(_ configuration: TransportConfiguration = TransportConfiguration()) -> any HTTPTransport {
        switch self {
        case .curl:
            #if os(Linux)
                CurlTransport(configuration: configuration)
            #else
                URLSessionTransport(configuration: configuration)  // never listed as available
            #endif
        case .urlSession: URLSessionTransport(configuration: configuration)
        }
    }
}

/// The bound on exchanges per host inside a transport a `TransportKind` made.
func hostLimiter(of transport: any HTTPTransport) -> HostLimiter? {
    #if os(Linux)
        if let curl = transport as? CurlTransport { return curl.hostLimiter }
    #endif
    return (transport as? URLSessionTransport)?.hostLimiter
}

/// Asks the loopback server a question (`/landings/<id>`, `/sent/<id>`, ...) through the
/// platform's default transport, and returns the answer's text.
func probe(_ base: URL, _ path: String) async throws -> String {
    let response = try await makeDefaultTransport().send(HTTPRequest(url: base.appendingPathComponent(path)))
    return String(decoding: response.body, as: UTF8.self)
}

/// The `NetworkError` `body` throws (`nil` when it returns; another error is a test failure).
func networkError(_ body: () async throws -> HTTPResponse) async -> NetworkError? {
    do {
        _ = try await body()
        return nil
    } catch let error as NetworkError {
        return error
    } catch {
        Issue.record("not a NetworkError: \(error)")
        return nil
    }
}
