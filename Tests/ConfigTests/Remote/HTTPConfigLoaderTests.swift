import Config
import Foundation
import Models
import Networking
import NetworkingTestSupport
import Testing

@Suite("Fetching the remote document")
struct HTTPConfigLoaderTests {
    let url = Fixture.url

    @Test("a 200 is decoded, checked and returned with its validators and fetch time")
    func modified() async throws {
        let clock = ManualClock()
        let transport = InMemoryTransport([
            Fixture.json(
                #"{"minVersion":"1.2.0","extra":{"a":1}}"#, etag: "\"v1\"",
                lastModified: "Sat, 13 Mar 2021 09:00:00 GMT")
        ])
        let response = try await Fixture.loader(transport, clock: clock).fetch(
            from: url, validators: ConfigValidators())
        guard case .modified(let config, let document) = response else {
            Issue.record("expected a new document, got \(response)")
            return
        }
        #expect(config["extra.a"] == .integer(1))
        #expect(document.etag == "\"v1\"")
        #expect(document.lastModified == "Sat, 13 Mar 2021 09:00:00 GMT")
        #expect(document.fetchedAt == clock.now)
        #expect(transport.requests.first?.headers["If-None-Match"] == nil)
    }

    @Test("validators are sent as If-None-Match and If-Modified-Since, and a 304 is not-modified")
    func conditional() async throws {
        let transport = InMemoryTransport([InMemoryTransport.Stub(status: 304)])
        let validators = ConfigValidators(etag: "\"v1\"", lastModified: "Sat, 13 Mar 2021 09:00:00 GMT")
        let response = try await Fixture.loader(transport).fetch(from: url, validators: validators)
        #expect(response == .notModified)
        let request = try #require(transport.requests.first)
        #expect(request.headers["If-None-Match"] == "\"v1\"")
        #expect(request.headers["If-Modified-Since"] == "Sat, 13 Mar 2021 09:00:00 GMT")
    }

    @Test("a redirect is followed to the document")
    func redirect() async throws {
        let moved = URL(string: "https://cdn.example/config.json")!
        let transport = InMemoryTransport([
            InMemoryTransport.Stub(url: url, status: 302, headers: ["Location": moved.absoluteString]),
            InMemoryTransport.Stub.json(#"{"minVersion":"2.0"}"#, url: moved),
        ])
        let response = try await Fixture.loader(transport).fetch(from: url, validators: ConfigValidators())
        guard case .modified(let config, _) = response else { throw ConfigError.cancelled }
        #expect(config["minVersion"] == .string("2.0"))
    }

    @Test("a file URL is read directly")
    func fileURL() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).json")
        try Data(#"{"minVersion":"3.0.0"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try await Fixture.loader(InMemoryTransport()).fetch(from: file, validators: ConfigValidators())
        guard case .modified(let config, _) = response else { throw ConfigError.cancelled }
        #expect(config["minVersion"] == .string("3.0.0"))
    }

    @Test(
        "each fault fails with one clear reason",
        arguments: Fault.allCases)
    func faults(fault: Fault) async {
        let transport = InMemoryTransport([fault.stub])
        let loader = HTTPConfigLoader(transport: transport, sleep: fault.sleep)
        do {
            let response = try await loader.fetch(from: url, validators: ConfigValidators())
            Issue.record("expected \(fault.expected), got \(response)")
        } catch {
            #expect(error == fault.expected)
            #expect(error.errorDescription?.isEmpty == false)
        }
    }

    @Test("messages name the problem and what to check")
    func messages() {
        #expect(Fault.status404.expected.errorDescription?.contains("HTTP 404") == true)
        #expect(Fault.status404.expected.errorDescription?.contains("check the config URL") == true)
        #expect(
            Fault.array.expected.errorDescription
                == "the remote configuration is invalid: (root): expected object, found array")
        #expect(Fault.slow.expected.errorDescription?.contains("did not answer within 10 seconds") == true)
    }
}

/// The faults every config fetch must survive, with the one reason each must give.
enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case unreachable, status404, status500, html, array, wrongType, wrongNestedType, notJSON, huge, slow

    var testDescription: String { rawValue }

    var stub: InMemoryTransport.Stub {
        switch self {
        case .unreachable: InMemoryTransport.Stub(error: .transport("Could not connect to the server."))
        case .status404: InMemoryTransport.Stub(status: 404, body: Data("not found".utf8))
        case .status500: InMemoryTransport.Stub(status: 500, body: Data("oops".utf8))
        case .html:
            InMemoryTransport.Stub(
                headers: ["Content-Type": "text/html; charset=utf-8"],
                body: Data("<!doctype html><html><body>Sign in to the Wi-Fi</body></html>".utf8))
        case .array: InMemoryTransport.Stub.json("[1, 2, 3]")
        case .wrongType: InMemoryTransport.Stub.json(#"{"refreshIntervalMinutes":"thirty"}"#)
        case .wrongNestedType: InMemoryTransport.Stub.json(#"{"features":{"fullTextSearch":"yes"}}"#)
        case .notJSON: InMemoryTransport.Stub.json(#"{"minVersion": "1.0.0",,}"#)
        case .huge:
            InMemoryTransport.Stub.json(#"{"padding":""# + String(repeating: "x", count: 10_000_000) + #""}"#)
        case .slow:
            InMemoryTransport.Stub(
                headers: ["Content-Type": "application/json"], body: Data(#"{"minVersion":"9.0.0"}"#.utf8),
                delay: .seconds(3600))
        }
    }

    /// The slow server never answers within the limit: its stub waits an hour and the time
    /// limit's sleep returns at once, so the test never waits. For the others the limit never
    /// comes (an hour), however late a busy machine lets the answer through.
    var sleep: @Sendable (Duration) async throws -> Void {
        switch self {
        case .slow: { _ in }
        default: { _ in try await Task.sleep(for: .seconds(3_600)) }
        }
    }

    var expected: ConfigError {
        let url = Fixture.url
        return switch self {
        case .unreachable: .unreachable(url: url, reason: "Could not connect to the server.")
        case .status404: .httpStatus(url: url, status: 404)
        case .status500: .httpStatus(url: url, status: 500)
        case .html: .notJSON(url: url, contentType: "an HTML page")
        case .array: .invalidDocument(source: "remote", detail: "(root): expected object, found array")
        case .wrongType:
            .invalidDocument(
                source: "remote",
                detail: #"refreshIntervalMinutes: expected a whole number from 1 to 52560000, found string "thirty""#)
        case .wrongNestedType:
            .invalidDocument(
                source: "remote", detail: #"features.fullTextSearch: expected true or false, found string "yes""#)
        case .notJSON: .invalidDocument(source: "remote", detail: "not valid JSON: the given data was not valid JSON")
        case .huge: .bodyTooLarge(url: url, limit: 1_000_000)
        case .slow: .timedOut(url: url, seconds: 10)
        }
    }
}
