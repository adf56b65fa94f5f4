import Foundation
import Networking
import Testing

#if os(Linux)
    import CCurl
#endif

/// A remote answer can only lead to http and https: a redirect to gopher:, dict:, ftp:, file:
/// (request forgery against local services, local file reads) is refused by the client with an
/// error that names the scheme, over every transport, and libcurl itself is restricted to the
/// two web protocols. (That each transport refuses such a URL itself is in
/// `TransportContractTests`.)
@Suite("Scheme boundary", .serialized)
struct SchemeBoundaryTests {
    static let schemes = ["gopher", "dict", "ftp", "GOPHER", "telnet", "ldap", "imap", "smtp", "tftp", "scp", "rtsp"]

    func client(_ base: URL, _ kind: TransportKind = .curl) -> APIClient {
        APIClient(baseURL: base, transport: kind.make(TransportConfiguration(timeout: 60)), retry: .never)
    }

    func canaryHits(_ base: URL) async throws -> String {
        String(decoding: try await client(base).data(Endpoint<Data>.get("canary")).body, as: UTF8.self)
    }

    @Test(
        "a redirect to another scheme is refused, naming it, and nothing connects to its port",
        arguments: TransportKind.available)
    func redirectToOtherSchemes(kind: TransportKind) async throws {
        try await withTestServer { base in
            for scheme in Self.schemes {
                do throws(NetworkError) {
                    _ = try await client(base, kind).send(
                        HTTPRequest(url: base.appendingPathComponent("scheme/\(scheme)")))
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

    @Test(
        "a redirect to file: is refused the same way whether the file exists or not", arguments: TransportKind.available
    )
    func redirectToFile(kind: TransportKind) async throws {
        try await withTestServer { base in
            var messages: [String] = []
            for path in ["scheme/file", "scheme/file/missing"] {
                do throws(NetworkError) {
                    _ = try await client(base, kind).send(HTTPRequest(url: base.appendingPathComponent(path)))
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

    #if os(Linux)
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
            guard let client = tidings_http_client_new(1) else { return (-1, "no client", Data()) }
            defer { tidings_http_client_free(client) }
            guard let handle = tidings_http_request_new() else { return (-1, "no handle", Data()) }
            defer { tidings_http_request_free(handle) }
            var result = tidings_http_result()
            tidings_http_perform(client, handle, url, "GET", url, nil, 0, nil, 0, 3000, 1_000_000, "test", 0, &result)
            defer { tidings_http_result_free(&result) }
            let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let body = result.body.map { Data(bytes: $0, count: result.body_length) } ?? Data()
            return (result.failure, message, body)
        }
    #endif
}
