import Foundation
import Networking
import NetworkingTestSupport
import Testing

@Suite("Conditional GET")
struct ConditionalGETTests {
    let url = URL(string: "https://config.test/app.json")!

    @Test("validators go out as If-None-Match and If-Modified-Since, replacing any the request had")
    func sendsValidators() async throws {
        let transport = InMemoryTransport { request in HTTPResponse(status: 304, url: request.url) }
        let client = APIClient(baseURL: url, transport: transport, retry: .never)
        var request = HTTPRequest(method: .post, url: url, headers: ["If-None-Match": "\"stale\""])
        request.headers["Accept"] = "application/json"
        let result = try await client.conditionalGet(
            request, validators: HTTPValidators(etag: "\"v2\"", lastModified: "Sat, 13 Mar 2021 09:00:00 GMT"))
        guard case .notModified(let response) = result else {
            Issue.record("a 304 was not reported as not modified: \(result)")
            return
        }
        #expect(response.status == 304)
        let sent = try #require(transport.requests.first)
        #expect(sent.method == .get)
        #expect(sent.headers["If-None-Match"] == "\"v2\"")
        #expect(sent.headers["If-Modified-Since"] == "Sat, 13 Mar 2021 09:00:00 GMT")
        #expect(sent.headers["Accept"] == "application/json")
    }

    @Test("no validators is an unconditional GET; the answer's validators come back with it")
    func returnsValidators() async throws {
        let transport = InMemoryTransport { request in
            HTTPResponse(
                status: 200, headers: ["ETag": "\"v3\"", "Last-Modified": "Sun, 14 Mar 2021 09:00:00 GMT"],
                body: Data("{}".utf8), url: request.url)
        }
        let client = APIClient(baseURL: url, transport: transport, retry: .never)
        let request = HTTPRequest(url: url, headers: ["If-None-Match": "\"left over\""])
        let result = try await client.conditionalGet(request, validators: HTTPValidators())
        guard case .response(let response, let validators) = result else {
            Issue.record("a 200 was reported as not modified")
            return
        }
        #expect(response.body == Data("{}".utf8))
        #expect(validators == HTTPValidators(etag: "\"v3\"", lastModified: "Sun, 14 Mar 2021 09:00:00 GMT"))
        let sent = try #require(transport.requests.first)
        #expect(sent.headers["If-None-Match"] == nil && sent.headers["If-Modified-Since"] == nil)
    }

    @Test("any status other than 304 is a response, with what validators it carries")
    func otherStatuses() async throws {
        let transport = InMemoryTransport { request in HTTPResponse(status: 404, url: request.url) }
        let client = APIClient(baseURL: url, transport: transport, retry: .never)
        let result = try await client.conditionalGet(
            HTTPRequest(url: url), validators: HTTPValidators(etag: "\"v1\""))
        guard case .response(let response, let validators) = result else {
            Issue.record("a 404 was reported as not modified")
            return
        }
        #expect(response.status == 404 && validators.isEmpty)
    }
}
