import Foundation
import Testing

/// Proxies from the environment, as curl and newsboat honour them: feeds go through
/// `http_proxy`; requests to this machine, and plain-http requests that carry a password, never
/// do (the proxy would read the password).
@Suite("tidings and proxies", .serialized)
struct ProxyTests {
    static let proxyScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Support/recording_proxy.py").standardizedFileURL

    @Test("a password for the loopback CalDAV server never goes through the environment's proxy; feeds do")
    func credentialsGoDirect() async throws {
        try await withSiteAndHome { site, home in
            let log = site.appendingPathComponent("proxy.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: Data())
            try ReadingTests.feed(paragraphs: 1).write(
                to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            try await withLoopbackServer(script: Self.proxyScript, arguments: [log.path]) { proxy in
                try await withFeedServer(serving: site) { server in
                    let proxyURL = proxy.absoluteString
                    let environment = [
                        "http_proxy": proxyURL, "HTTP_PROXY": proxyURL, "https_proxy": proxyURL,
                        "HTTPS_PROXY": proxyURL, "ALL_PROXY": proxyURL, "all_proxy": proxyURL, "no_proxy": "",
                        "NO_PROXY": "", "TIDINGS_CALDAV_PASSWORD": "SECRET-PASSWORD",
                    ]
                    let collection = server.appendingPathComponent("alice/chores/").absoluteString
                    let setup = try TidingsBinary.run(
                        ["--home", home.path, "-c", "task sync setup \(collection) --user alice"],
                        environment: environment)
                    #expect(setup.status == 1, "the feed server is no CalDAV server: \(setup.out)")
                    let local = try TidingsBinary.run(
                        [
                            "--home", home.path, "-c",
                            "feed add \(server.appendingPathComponent("f.xml").absoluteString)",
                        ],
                        environment: environment)
                    #expect(local.status == 0, "\(local.err)")
                    let afterLoopback = try String(contentsOf: log, encoding: .utf8)
                    #expect(afterLoopback.isEmpty, "the proxy was sent: \(afterLoopback)")

                    let remote = try TidingsBinary.run(
                        ["--home", home.path, "-c", "feed add http://feeds.example/feed.xml"], environment: environment)
                    #expect(remote.status == 0 && remote.out.contains("Through the proxy"), "\(remote.err)")
                    let proxied = try String(contentsOf: log, encoding: .utf8)
                    #expect(proxied.contains("GET http://feeds.example/feed.xml"), "\(proxied)")
                    #expect(!proxied.contains("SECRET") && !proxied.lowercased().contains("authorization"))
                }
            }
        }
    }
}
