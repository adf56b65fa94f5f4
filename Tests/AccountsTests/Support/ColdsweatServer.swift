import Accounts
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real Fever server for one test: Coldsweat (installed by `make deps` under
/// .build/tools/fever) with its own SQLite database in a temporary directory and one user,
/// subscribed to `feeds` and having fetched them, served on 127.0.0.1.
///
/// Coldsweat reaches nothing but this machine: its HTTP clients are sent to a proxy on a
/// closed loopback port for every host but 127.0.0.1 and localhost, so the favicon lookups it
/// makes for each feed's site (icons.duckduckgo.com) fail at once instead of leaving.
struct ColdsweatServer {
    /// The Fever endpoint (`http://127.0.0.1:PORT/fever/`).
    let endpoint: URL
    let credentials: FeverCredentials
    /// Where its database and logs are.
    let directory: URL

    static let tools = URL(fileURLWithPath: #filePath, isDirectory: false)
        .deletingLastPathComponent().appendingPathComponent("../../../.build/tools/fever/bin", isDirectory: true)
        .standardizedFileURL

    /// The environment every `coldsweat` command runs in.
    var environment: [String: String] { Self.environment(directory: directory) }

    static func environment(directory: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FLASK_DATABASE_URL"] = "sqlite:///" + directory.appendingPathComponent("coldsweat.db").path
        for name in ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"] {
            environment[name] = "http://127.0.0.1:9"
        }
        environment["NO_PROXY"] = "127.0.0.1,localhost"
        environment["no_proxy"] = "127.0.0.1,localhost"
        return environment
    }

    /// Runs `coldsweat ARGUMENTS` to its end; a failure fails the test with what it said.
    func coldsweat(_ arguments: [String]) throws {
        try Self.coldsweat(arguments, directory: directory)
    }

    static func coldsweat(_ arguments: [String], directory: URL) throws {
        let process = ChildProcess()
        process.executableURL = tools.appendingPathComponent("coldsweat", isDirectory: false)
        process.arguments = arguments
        process.environment = environment(directory: directory)
        process.currentDirectoryURL = directory
        let log = directory.appendingPathComponent("\(arguments[0]).log", isDirectory: false)
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitWithoutSpinning()
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        try #require(process.terminationStatus == 0, "coldsweat \(arguments.joined(separator: " ")) failed: \(said)")
    }

    /// Subscribes the user to `feeds` (an OPML import) and fetches every feed now.
    func subscribe(_ feeds: [URL]) throws {
        let outlines = feeds.map { "<outline type=\"rss\" text=\"\($0.absoluteString)\" xmlUrl=\"\($0.absoluteString)\"/>" }
        let opml = directory.appendingPathComponent("feeds-\(UUID().uuidString).opml", isDirectory: false)
        try Data(
            ("<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>t</title></head><body>"
                + outlines.joined() + "</body></opml>").utf8
        ).write(to: opml)
        try coldsweat(["import", opml.path, credentials.user])
        try coldsweat(["fetch"])
    }
}

/// Runs `body` against a Coldsweat started for it, its user subscribed to `feeds` (fetched
/// before `body` runs), and stops it afterwards.
func withColdsweat<T>(feeds: [URL], _ body: (ColdsweatServer) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tidings-coldsweat-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try #require(
        FileManager.default.isExecutableFile(atPath: ColdsweatServer.tools.appendingPathComponent("coldsweat").path),
        "Coldsweat is not installed: run make deps")
    let credentials = FeverCredentials(user: "reader@example.com", password: "correct horse battery staple")
    try ColdsweatServer.coldsweat(
        ["setup", credentials.user, "--password", credentials.password, "--name", "Reader"], directory: directory)

    let process = ChildProcess()
    process.executableURL = ColdsweatServer.tools.appendingPathComponent("coldsweat", isDirectory: false)
    process.arguments = ["run", "--host", "127.0.0.1", "--port", "0", "--no-reload", "--no-debugger"]
    process.environment = ColdsweatServer.environment(directory: directory)
    process.currentDirectoryURL = directory
    let log = directory.appendingPathComponent("run.log", isDirectory: false)
    FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    try? handle.close()
    defer { stopServer(process) }

    // Flask's server names its address once it listens: "Running on http://127.0.0.1:PORT".
    var endpoint: URL?
    let deadline = ContinuousClock.now + .seconds(60)
    while endpoint == nil, ContinuousClock.now < deadline, process.isRunning {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
            endpoint = URL(string: String(text[range]) + "/fever/")
        } else {
            try await Task.sleep(for: .milliseconds(50))
        }
    }
    let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    let server = ColdsweatServer(
        endpoint: try #require(endpoint, "Coldsweat did not start: \(said)"), credentials: credentials,
        directory: directory)
    try server.subscribe(feeds)
    return try await body(server)
}
