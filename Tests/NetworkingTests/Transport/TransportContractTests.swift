import Foundation
import Networking
import Testing

/// What every network transport must do with what the server answers, checked against a real
/// server on 127.0.0.1 (Support/test_server.py) for each transport: redirects returned, not
/// followed; statuses as responses; headers both ways; gzip decoded; no cache, no cookies; other
/// schemes refused before anything connects; a closed port as a transport error.
@Suite("Transport contract", .serialized)
struct TransportContractTests {
    @Test(
        "a redirect comes back as the 3xx response with its Location, and its target is not fetched",
        arguments: TransportKind.available)
    func redirectsAreReturned(kind: TransportKind) async throws {
        try await withTestServer { base in
            for status in [301, 302, 303, 307, 308] {
                let id = UUID().uuidString
                let response = try await kind.make().send(
                    HTTPRequest(url: base.appendingPathComponent("redirectstatus/\(status)/\(id)")))
                #expect(response.status == status)
                #expect(response.headers["location"] == "/landing/\(id)")
                #expect(response.url == base.appendingPathComponent("redirectstatus/\(status)/\(id)"))
                let landings = try await probe(base, "landings/\(id)")
                #expect(landings == "0", "\(status) was followed")
            }
        }
    }

    @Test("a non-2xx status is a response with its body, not an error", arguments: TransportKind.available)
    func statusesAreResponses(kind: TransportKind) async throws {
        try await withTestServer { base in
            for status in [400, 404, 410, 418, 429, 500, 503] {
                let response = try await kind.make().send(
                    HTTPRequest(url: base.appendingPathComponent("status/\(status)")))
                #expect(response.status == status)
                #expect(String(decoding: response.body, as: UTF8.self) == "status \(status)")
                #expect(!response.isSuccess)
            }
            for status in [204, 304] {
                let response = try await kind.make().send(
                    HTTPRequest(url: base.appendingPathComponent("status/\(status)")))
                #expect(response.status == status && response.body.isEmpty)
            }
        }
    }

    @Test(
        "the request's method, headers, body and User-Agent arrive, with Accept-Encoding",
        arguments: TransportKind.available)
    func requestArrives(kind: TransportKind) async throws {
        try await withTestServer { base in
            let transport = kind.make(TransportConfiguration(timeout: 10, userAgent: "ConformanceSuite/1"))
            let response = try await transport.send(
                HTTPRequest(
                    method: .put, url: base.appendingPathComponent("echo"),
                    headers: ["X-Tidings-Test": "42", "Content-Type": "text/plain"], body: Data("the body".utf8)))
            let seen = try JSONDecoder().decode(EchoedRequest.self, from: response.body)
            #expect(seen.method == "PUT")
            #expect(seen.body == "the body")
            #expect(seen.headers["x-tidings-test"] == "42")
            #expect(seen.headers["user-agent"] == "ConformanceSuite/1")
            #expect(seen.headers["accept-encoding"]?.contains("gzip") == true)

            let named = try await transport.send(
                HTTPRequest(url: base.appendingPathComponent("echo"), headers: ["User-Agent": "Named/2"]))
            #expect(try JSONDecoder().decode(EchoedRequest.self, from: named.body).headers["user-agent"] == "Named/2")
        }
    }

    @Test("response headers come back, read whatever the case of the name", arguments: TransportKind.available)
    func responseHeadersComeBack(kind: TransportKind) async throws {
        try await withTestServer { base in
            let response = try await kind.make().send(HTTPRequest(url: base.appendingPathComponent("echo")))
            #expect(response.headers["X-Echo-Answer"] == "Answered")
            #expect(response.headers["x-echo-answer"] == "Answered")
            #expect(response.headers["content-type"] == "application/json")
        }
    }

    @Test("a gzip body comes back decompressed", arguments: TransportKind.available)
    func gzipIsDecoded(kind: TransportKind) async throws {
        try await withTestServer { base in
            let response = try await kind.make().send(HTTPRequest(url: base.appendingPathComponent("gzip")))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == String(repeating: "unzipped body ", count: 100))
        }
    }

    @Test("nothing is cached: a cacheable answer is asked for again", arguments: TransportKind.available)
    func nothingIsCached(kind: TransportKind) async throws {
        try await withTestServer { base in
            let transport = kind.make()
            let url = base.appendingPathComponent("counter/\(UUID().uuidString)")
            let first = try await transport.send(HTTPRequest(url: url))
            let second = try await transport.send(HTTPRequest(url: url))
            #expect(first.headers["cache-control"] == "max-age=3600")
            #expect(String(decoding: first.body, as: UTF8.self) == "1")
            #expect(String(decoding: second.body, as: UTF8.self) == "2")
        }
    }

    @Test("no cookie is kept: a Set-Cookie is not sent back", arguments: TransportKind.available)
    func noCookiesAreKept(kind: TransportKind) async throws {
        try await withTestServer { base in
            let transport = kind.make()
            let set = try await transport.send(HTTPRequest(url: base.appendingPathComponent("cookie")))
            #expect(set.headers["set-cookie"]?.hasPrefix("session=secret") == true)
            let echo = try await transport.send(HTTPRequest(url: base.appendingPathComponent("echo")))
            #expect(try JSONDecoder().decode(EchoedRequest.self, from: echo.body).headers["cookie"] == nil)
        }
    }

    @Test("a URL that is not http or https is refused before anything connects", arguments: TransportKind.available)
    func otherSchemesAreRefused(kind: TransportKind) async throws {
        try await withTestServer { base in
            let port = try await probe(base, "canaryport")
            let texts = [
                "file:///etc/passwd", "ftp://127.0.0.1:\(port)/x", "FTP://127.0.0.1:\(port)/x",
                "gopher://127.0.0.1:\(port)/_GET%20/x", "dict://127.0.0.1:\(port)/", "data:text/plain,hello",
            ]
            for text in texts {
                let url = try #require(URL(string: text))
                let error = await networkError {
                    try await kind.make().send(HTTPRequest(url: url))
                }
                #expect(error == .unsupportedScheme(url.scheme?.lowercased() ?? "", url), "\(text)")
            }
            let canaryHits = try await probe(base, "canary")
            #expect(canaryHits == "0")
        }
    }

    @Test(
        "a header with a line break, a NUL or a control character in its value, or a name that is not a token, is refused before anything connects",
        arguments: TransportKind.available)
    func unsendableHeadersAreRefused(kind: TransportKind) async throws {
        try await withTestServer { base in
            let port = try await probe(base, "canaryport")
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/x"))
            let values = [
                "\"e\"\r\nX-Injected: yes", "\"e\"\nX-Injected: yes", "\"e\"\r", "a\u{0}b", "a\u{7F}b", "a\u{1B}[31mb",
                "\"e\"\r\n\r\nDELETE /victim HTTP/1.1",
            ]
            for value in values {
                let error = await networkError {
                    try await kind.make().send(HTTPRequest(method: .put, url: url, headers: ["If-Match": value]))
                }
                #expect(error == .invalidHeader("If-Match"), "\(value.debugDescription)")
            }
            for name in ["X Bad", "X:Injected", "X-A\r\nX-B", ""] {
                let error = await networkError {
                    try await kind.make().send(HTTPRequest(url: url, headers: [name: "1"]))
                }
                guard case .invalidHeader = error else {
                    Issue.record("\(name.debugDescription): \(String(describing: error))")
                    continue
                }
            }
            #if os(Linux)
                if kind == .curl {
                    let error = await networkError {
                        try await CurlTransport(configuration: TransportConfiguration(timeout: 10)).stream(
                            HTTPRequest(url: url, headers: ["If-None-Match": "\"e\"\r\nX-Injected: yes"]),
                            to: BodyReceiver(head: { _ in true }, write: { _ in }))
                    }
                    #expect(error == .invalidHeader("If-None-Match"))
                }
            #endif
            let canaryHits = try await probe(base, "canary")
            #expect(canaryHits == "0")
        }
    }

    @Test("a connection refused is a transport error", arguments: TransportKind.available)
    func refusedIsTransportError(kind: TransportKind) async throws {
        let port = try await withTestServer { base in try await probe(base, "closedport") }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/x"))
        let error = await networkError {
            try await kind.make(TransportConfiguration(timeout: 10)).send(HTTPRequest(url: url))
        }
        guard case .transport(let reason) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(!reason.isEmpty)
    }
}

/// The request as Support/test_server.py's `/echo` saw it.
struct EchoedRequest: Decodable {
    var method: String
    var headers: [String: String]
    var body: String
}
