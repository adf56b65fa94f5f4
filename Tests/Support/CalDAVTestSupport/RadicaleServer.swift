public import Foundation
import Testing

/// A real Radicale CalDAV server on 127.0.0.1 for one test (Tests/Support/radicale_server.py):
/// a temporary storage folder, a password file with one user, a free port.
public struct RadicaleServer: Sendable {
    /// `http://127.0.0.1:PORT/`.
    public let base: URL
    /// The storage folder (Radicale's filesystem layout).
    public let storage: URL
    /// The one user in the password file.
    public let user = "alice"
    /// Its password (with a space, as netrc files must quote).
    public let password = "correct horse"

    /// The Python that has Radicale: `$TIDINGS_CALDAV_TOOLS/bin/python3`, else the one
    /// `make deps` installs under .build/tools/caldav.
    public static var python: URL {
        if let tools = ProcessInfo.processInfo.environment["TIDINGS_CALDAV_TOOLS"], !tools.isEmpty {
            return URL(fileURLWithPath: tools).appendingPathComponent("bin/python3")
        }
        return packageRoot.appendingPathComponent(".build/tools/caldav/bin/python3")
    }

    /// The package's folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../..")
        .standardizedFileURL

    /// Makes a calendar collection `name` for the user that holds `components` (Radicale's
    /// `.Radicale.props`), and returns its URL.
    @discardableResult
    public func makeCalendar(_ name: String, components: [String] = ["VTODO"]) throws -> URL {
        try makeCollection(
            name,
            properties: ["tag": "VCALENDAR", "C:supported-calendar-component-set": components.joined(separator: ",")])
    }

    /// Makes an address book `name`: a collection that is not a calendar (Radicale serves no
    /// untagged collection below a principal). Returns its URL.
    @discardableResult
    public func makeAddressBook(_ name: String) throws -> URL {
        try makeCollection(name, properties: ["tag": "VADDRESSBOOK"])
    }

    private func makeCollection(_ name: String, properties: [String: String]) throws -> URL {
        let folder = storage.appendingPathComponent("collection-root/\(user)/\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let props = try JSONSerialization.data(withJSONObject: properties, options: [.sortedKeys])
        try props.write(to: folder.appendingPathComponent(".Radicale.props"))
        return base.appendingPathComponent("\(user)/\(name)/", isDirectory: true)
    }
}

/// Runs `body` against a Radicale started for it, and stops the server (its stdin, the
/// lifeline, closes) when `body` returns or throws. A machine without the Radicale that
/// `make deps` installs fails the test, saying so.
public func withRadicale<T>(_ body: (RadicaleServer) async throws -> T) async throws -> T {
    let python = RadicaleServer.python
    try #require(
        FileManager.default.isExecutableFile(atPath: python.path),
        "no Radicale at \(python.path): run `make deps` (or set TIDINGS_CALDAV_TOOLS)")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tidings-radicale-\(UUID().uuidString)")
    let storage = directory.appendingPathComponent("storage")
    try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let users = directory.appendingPathComponent("users")
    let portFile = directory.appendingPathComponent("port")
    let server = RadicaleServer(base: URL(string: "http://127.0.0.1/")!, storage: storage)
    try Data("\(server.user):\(server.password)\n".utf8).write(to: users)

    // A start that fails is tried again: under a full parallel test run one in a few dozen
    // starts ended without a port and without a word from the script.
    var failures: [String] = []
    for attempt in 1...3 {
        try? FileManager.default.removeItem(at: portFile)
        let log = directory.appendingPathComponent("start-\(attempt).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = python
        process.arguments = [
            RadicaleServer.packageRoot.appendingPathComponent("Tests/Support/radicale_server.py").path, storage.path,
            users.path, portFile.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        let errors = try FileHandle(forWritingTo: log)
        process.standardError = errors
        let lifeline = Pipe()
        process.standardInput = lifeline
        try process.run()
        try? errors.close()
        defer {
            try? lifeline.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        var port: Int?
        let deadline = ContinuousClock.now + .seconds(60)
        while port == nil && process.isRunning && ContinuousClock.now < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n") {
                port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            } else {
                try await Task.sleep(for: .milliseconds(25))
            }
        }
        if let port, let base = URL(string: "http://127.0.0.1:\(port)/") {
            return try await body(RadicaleServer(base: base, storage: storage))
        }
        try? lifeline.fileHandleForWriting.close()
        process.waitUntilExit()
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        failures.append("attempt \(attempt): status \(process.terminationStatus) \(said)")
    }
    Issue.record("Radicale did not start: \(failures.joined(separator: "; "))")
    throw CancellationError()
}
