import DefaultTransport
import Foundation
import Networking
import Testing

// The getting-started snippet of Sources/Networking/Networking.docc/Networking.md, compiled and
// run. DocumentationTests (REPLTests) checks that the page shows this code verbatim.

/// The body of `GET status`: `{"message": "ok", "updated_at": "2026-11-23T08:00:00Z"}`.
struct ServiceStatus: Decodable, Sendable {
    var message: String
    var updatedAt: Date
}

/// Fetches the service's status below `baseURL`: redirects followed, transient failures
/// retried, a failing status thrown as `NetworkError.status`, the body decoded.
func fetchStatus(
    from baseURL: URL, transport: any HTTPTransport = makeDefaultTransport()
) async throws(NetworkError) -> ServiceStatus {
    let client = APIClient(baseURL: baseURL, transport: transport)
    return try await client.execute(Endpoint<ServiceStatus>.get("status"))
}

/// A transport that answers from a table of URLs and a 404 for anything else: what the
/// snippet's `transport` parameter lets a test pass instead of the platform's transport.
private struct TableTransport: HTTPTransport {
    let answers: [String: (status: Int, body: String)]

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        let answer = answers[request.url.absoluteString] ?? (404, "")
        return HTTPResponse(status: answer.status, body: Data(answer.body.utf8), url: request.url)
    }
}

@Suite("Networking: getting started")
struct NetworkingGettingStartedTests {
    let base = URL(string: "https://api.example.com/v1/")!

    @Test("the status is fetched below the base URL and decoded from snake_case with RFC 3339 dates")
    func statusDecoded() async throws {
        let transport = TableTransport(answers: [
            "https://api.example.com/v1/status": (200, #"{"message": "ok", "updated_at": "2026-11-23T08:00:00Z"}"#)
        ])
        let status = try await fetchStatus(from: base, transport: transport)
        #expect(status.message == "ok")
        #expect(status.updatedAt == Date(timeIntervalSince1970: 1_795_420_800))
    }

    @Test("a failing status is thrown with the response")
    func failingStatusThrown() async {
        let transport = TableTransport(answers: [:])
        await #expect {
            _ = try await fetchStatus(from: base, transport: transport)
        } throws: { error in
            guard case .status(let response) = error as? NetworkError else { return false }
            return response.status == 404
        }
    }
}
