import Foundation
import Logging
import Models
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

@testable import REPL

/// A temporary home with the whole graph built over it, as the composition root builds it, but
/// with an in-memory HTTP server, a fixed clock (2026-11-22 10:00 UTC) and a UTC calendar.
final class TestApp {
    let home: URL
    let environment: AppEnvironment
    let server: StubServer
    static let now = Date(timeIntervalSince1970: 1_795_341_600)  // 2026-11-22T10:00:00Z

    init(configURL: String = "https://config.test/config.json", appVersion: String = "1.0.0") async throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-repl-\(UUID().uuidString)")
        server = StubServer()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        environment = try await AppEnvironment.make(
            home: HomeLocation(home: home.path, database: nil, environment: [:]), configURL: configURL,
            environment: [:],
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, transport: server.transport,
            now: { TestApp.now }, calendar: calendar)
        self.appVersion = try SemanticVersion(appVersion)
    }

    let appVersion: SemanticVersion

    deinit { try? FileManager.default.removeItem(at: home) }

    /// A session printing into a transcript.
    func session(
        json: Bool = false, keepGoing: Bool = false, history: HistoryStore = HistoryStore(fileURL: nil),
        display: Display = .plain
    ) -> (Session, Transcript) {
        let transcript = Transcript()
        var display = display
        display.locale = Locale(identifier: "en_GB")
        display.timeZone = TimeZone(identifier: "UTC") ?? .current
        let context = environment.context(display: display, appVersion: appVersion)
        return (
            Session(
                options: .init(json: json, keepGoing: keepGoing), console: transcript.console, history: history,
                context: context), transcript
        )
    }

    /// Runs lines and returns the status and what was printed.
    func run(_ lines: [String], json: Bool = false) async -> (status: Int32, out: [String], err: [String]) {
        let (session, transcript) = session(json: json)
        let status = await session.runScript(lines)
        return (status, transcript.out, transcript.err)
    }

    /// Runs one command with `--json` and decodes its document.
    func json(_ line: String) async throws -> [String: Any] {
        let result = await run([line], json: true)
        let text = try #require(result.out.last, "no output for \(line): \(result.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}

/// HTTP answers by URL, with ETag handling. A request for a URL nothing is served at fails the
/// test (and is answered 404): a test that expects a 404 serves it.
final class StubServer: Sendable {
    private let documents = Mutex<[String: (status: Int, body: Data, headers: [String: String])]>([:])
    private let requestLog = Mutex<[String]>([])

    func serve(_ url: String, _ body: String, status: Int = 200, headers: [String: String] = [:]) {
        documents.withLock { $0[url] = (status, Data(body.utf8), headers) }
    }

    var requests: [String] { requestLog.withLock { $0 } }

    var transport: InMemoryTransport {
        InMemoryTransport { request throws(NetworkError) in
            self.requestLog.withLock { $0.append(request.url.absoluteString) }
            guard let document = self.documents.withLock({ $0[request.url.absoluteString] }) else {
                Issue.record("StubServer: nothing served at \(request.method.rawValue) \(request.url.absoluteString)")
                return HTTPResponse(status: 404, url: request.url)
            }
            if let etag = document.headers["ETag"], request.headers["If-None-Match"] == etag {
                return HTTPResponse(status: 304, headers: HTTPHeaders(document.headers), url: request.url)
            }
            return HTTPResponse(
                status: document.status, headers: HTTPHeaders(document.headers), body: document.body, url: request.url)
        }
    }
}

/// An RSS document with `count` items dated the days before the test clock's today.
func sampleRSS(title: String, count: Int, prefix: String = "Story") -> String {
    let items = (0..<count).map { index in
        "<item><title>\(prefix) \(index)</title><link>https://news.test/\(prefix.lowercased())/\(index)</link>"
            + "<description>&lt;p&gt;Body of \(prefix.lowercased()) \(index).&lt;/p&gt;</description>"
            + "<pubDate>Sat, \(21 - index % 20) Nov 2026 08:00:00 GMT</pubDate></item>"
    }.joined()
    return
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title><link>https://news.test/</link>\(items)</channel></rss>"
}

/// A fresh site directory (created) and home directory (created by the binary when it first
/// runs) under the temporary directory, both removed when `body` returns or throws.
func withSiteAndHome<T>(_ body: (_ site: URL, _ home: URL) async throws -> T) async throws -> T {
    let site = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-site-\(UUID().uuidString)")
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
    defer {
        try? FileManager.default.removeItem(at: site)
        try? FileManager.default.removeItem(at: home)
    }
    return try await body(site, home)
}
