import CCurl
import Foundation
import Networking
import Testing

/// A remote answer can only lead to http and https: a redirect to gopher:, dict:, ftp:, file:
/// (request forgery against local services, local file reads) is refused by the client with an
/// error that names the scheme, and libcurl itself is restricted to the two web protocols.
@Suite("Scheme boundary", .serialized)
struct SchemeBoundaryTests {
    static let schemes = ["gopher", "dict", "ftp", "GOPHER", "telnet", "ldap", "imap", "smtp", "tftp", "scp", "rtsp"]

    func client(_ base: URL) -> APIClient {
        APIClient(baseURL: base, transport: CurlTransport(configuration: .init(timeout: 5)), retry: .never)
    }

    func canaryHits(_ base: URL) async throws -> String {
        String(decoding: try await client(base).data(Endpoint<Data>.get("canary")).body, as: UTF8.self)
    }

    @Test("a redirect to another scheme is refused, naming it, and nothing connects to its port")
    func redirectToOtherSchemes() async throws {
        try await withTestServer { base in
            for scheme in Self.schemes {
                do throws(NetworkError) {
                    _ = try await client(base).send(HTTPRequest(url: base.appendingPathComponent("scheme/\(scheme)")))
                    Issue.record("a redirect to \(scheme): was followed")
                } catch {
                    guard case .unsupportedScheme(let named, let url) = error else {
                        Issue.record("\(scheme): unexpected \(error)")
                        continue
                    }
                    #expect(named == scheme.lowercased())
                    #expect(url.host == "127.0.0.1")
                    #expect(error.errorDescription?.contains("\"\(scheme.lowercased())\"") == true)
                }
            }
            let hits = try await canaryHits(base)
            #expect(hits == "0")
        }
    }

    @Test("a redirect to file: is refused the same way whether the file exists or not")
    func redirectToFile() async throws {
        try await withTestServer { base in
            var messages: [String] = []
            for path in ["scheme/file", "scheme/file/missing"] {
                do throws(NetworkError) {
                    _ = try await client(base).send(HTTPRequest(url: base.appendingPathComponent(path)))
                    Issue.record("a redirect to file: was followed")
                } catch {
                    guard case .unsupportedScheme("file", _) = error else {
                        Issue.record("unexpected \(error)")
                        continue
                    }
                    messages.append(error.errorDescription ?? "")
                }
            }
            #expect(messages.count == 2)
            #expect(messages.allSatisfy { !$0.contains("open") && $0.contains("\"file\"") })
        }
    }

    @Test("the transport refuses a URL that is not http or https before anything is sent")
    func transportRefusesOtherSchemes() async throws {
        for text in ["gopher://127.0.0.1:9/_x", "file:///etc/passwd", "dict://127.0.0.1:9/", "ftp://127.0.0.1:9/"] {
            let url = try #require(URL(string: text))
            await #expect(throws: NetworkError.unsupportedScheme(url.scheme ?? "", url)) {
                try await CurlTransport().send(HTTPRequest(url: url))
            }
        }
    }

    @Test("libcurl itself fetches no scheme but http and https (CURLOPT_PROTOCOLS_STR)")
    func libcurlIsRestricted() async throws {
        try await withTestServer { base in
            for scheme in ["gopher", "dict", "ftp", "telnet"] {
                let hitsBefore = try await canaryHits(base)
                let port = try await canaryPort(base)
                let target = "\(scheme)://127.0.0.1:\(port)/_GET%20/x"
                let outcome = Self.performDirectly(target)
                #expect(outcome.failure == Int32(TIDINGS_HTTP_TRANSPORT), "\(scheme): \(outcome.message)")
                #expect(outcome.message.lowercased().contains("protocol"), "\(scheme): \(outcome.message)")
                let hitsAfter = try await canaryHits(base)
                #expect(hitsAfter == hitsBefore)
            }
            let file = Self.performDirectly("file:///etc/hostname")
            #expect(file.failure == Int32(TIDINGS_HTTP_TRANSPORT) && file.body.isEmpty)
        }
    }

    /// The canary's port, read back from a redirect's Location.
    func canaryPort(_ base: URL) async throws -> Int {
        let transport = CurlTransport()
        let response = try await transport.send(HTTPRequest(url: base.appendingPathComponent("scheme/gopher")))
        return try #require(response.headers["Location"].flatMap(URL.init(string:))?.port)
    }

    /// Calls the C layer with a URL the Swift layer would refuse.
    static func performDirectly(_ url: String) -> (failure: Int32, message: String, body: Data) {
        guard let handle = tidings_http_request_new() else { return (-1, "no handle", Data()) }
        defer { tidings_http_request_free(handle) }
        var result = tidings_http_result()
        tidings_http_perform(handle, "GET", url, nil, 0, nil, 0, 3000, 1_000_000, "test", &result)
        defer { tidings_http_result_free(&result) }
        let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let body = result.body.map { Data(bytes: $0, count: result.body_length) } ?? Data()
        return (result.failure, message, body)
    }
}
