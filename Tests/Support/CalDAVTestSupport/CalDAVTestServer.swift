public import Foundation
import Testing

/// A real CalDAV server on 127.0.0.1 for one test (Tests/Support/caldav_server.py): Radicale,
/// or Xandikos, a second implementation that differs in how it stores objects (a git
/// repository per collection), in its ETags and sync tokens, and in its answers. A temporary
/// storage folder, one user, a free port.
public struct CalDAVTestServer: Sendable {
    /// Which implementation.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case radicale, xandikos
        /// The implementation's name, as test cases show it.
        public var description: String { rawValue }
    }

    /// Which server implementation this is.
    public let kind: Kind
    /// `http://127.0.0.1:PORT/`.
    public let base: URL
    /// The storage folder (Radicale's filesystem layout; Xandikos's repositories).
    public let storage: URL
    /// The one user (Radicale's password file; Xandikos's principal, `/alice/`).
    public let user = "alice"
    /// Its password (with a space, as netrc files must quote). Xandikos checks none.
    public let password = "correct horse"

    /// The Python that has Radicale and Xandikos: `$TIDINGS_CALDAV_TOOLS/bin/python3`, else the
    /// one `make deps` installs under .build/tools/caldav.
    public static var python: URL {
        if let tools = ProcessInfo.processInfo.environment["TIDINGS_CALDAV_TOOLS"], !tools.isEmpty {
            return URL(fileURLWithPath: tools).appendingPathComponent("bin/python3")
        }
        return packageRoot.appendingPathComponent(".build/tools/caldav/bin/python3")
    }

    /// The package's folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../..")
        .standardizedFileURL

    /// Makes a calendar collection `name` for the user that holds `components`, and returns its
    /// URL.
    @discardableResult
    public func makeCalendar(_ name: String, components: [String] = ["VTODO"]) throws -> URL {
        switch kind {
        case .radicale:
            try makeCollection(
                name,
                properties: [
                    "tag": "VCALENDAR", "C:supported-calendar-component-set": components.joined(separator: ","),
                ])
        case .xandikos:
            try xandikos(["create-collection", "--type", "calendar", "--name", name])
        }
        return base.appendingPathComponent("\(user)/\(name)/", isDirectory: true)
    }

    /// Makes an address book `name`: a collection that is not a calendar. Returns its URL.
    @discardableResult
    public func makeAddressBook(_ name: String) throws -> URL {
        switch kind {
        case .radicale: try makeCollection(name, properties: ["tag": "VADDRESSBOOK"])
        case .xandikos: try xandikos(["create-collection", "--type", "addressbook", "--name", name])
        }
        return base.appendingPathComponent("\(user)/\(name)/", isDirectory: true)
    }

    private func makeCollection(_ name: String, properties: [String: String]) throws {
        let folder = storage.appendingPathComponent("collection-root/\(user)/\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let props = try JSONSerialization.data(withJSONObject: properties, options: [.sortedKeys])
        try props.write(to: folder.appendingPathComponent(".Radicale.props"))
    }

    /// Runs `xandikos ARGUMENTS -d STORAGE/USER`; a failure fails the test with what it said.
    private func xandikos(_ arguments: [String]) throws {
        let folder = storage.appendingPathComponent(user)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = ChildProcess()
        process.executableURL = Self.python
        process.arguments = ["-m", "xandikos", arguments[0], "-d", folder.path] + arguments.dropFirst()
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0, "xandikos \(arguments[0]) failed: \(String(decoding: said, as: UTF8.self))")
    }
}

/// Runs `body` against a Radicale started for it (see `withCalDAVServer`).
public func withRadicale<T>(_ body: (CalDAVTestServer) async throws -> T) async throws -> T {
    try await withCalDAVServer(.radicale, body)
}

/// How many CalDAV servers the tests run at once. Dozens of suites start one each at the same
/// moment; on two cores that many Python servers starting together starved the rest of the
/// run. A test waits (without holding a thread) for a slot. No test uses two servers at once.
actor CalDAVServerSlots {
    static let shared = CalDAVServerSlots(slots: 4)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(slots: Int) { free = slots }

    func take() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// Runs `body` against a CalDAV server of `kind` started for it, and stops the server (its
/// stdin, the lifeline, closes) when `body` returns or throws. A machine without the servers
/// that `make deps` installs fails the test, saying so. At most four run at once (see
/// `CalDAVServerSlots`).
public func withCalDAVServer<T>(_ kind: CalDAVTestServer.Kind, _ body: (CalDAVTestServer) async throws -> T)
    async throws -> T
{
    await CalDAVServerSlots.shared.take()
    do {
        let result = try await withOneCalDAVServer(kind, body)
        await CalDAVServerSlots.shared.give()
        return result
    } catch {
        await CalDAVServerSlots.shared.give()
        throw error
    }
}

private func withOneCalDAVServer<T>(_ kind: CalDAVTestServer.Kind, _ body: (CalDAVTestServer) async throws -> T)
    async throws -> T
{
    let python = CalDAVTestServer.python
    try #require(
        FileManager.default.isExecutableFile(atPath: python.path),
        "no CalDAV test servers at \(python.path): run `make deps` (or set TIDINGS_CALDAV_TOOLS)")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tidings-\(kind)-\(UUID().uuidString)")
    let storage = directory.appendingPathComponent("storage")
    try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let users = directory.appendingPathComponent("users")
    let portFile = directory.appendingPathComponent("port")
    let placeholder = CalDAVTestServer(kind: kind, base: URL(fileURLWithPath: "/"), storage: storage)
    try Data("\(placeholder.user):\(placeholder.password)\n".utf8).write(to: users)

    // A start that fails is tried again: under a full parallel test run one in a few dozen
    // starts ended without a port and without a word from the script.
    var failures: [String] = []
    for attempt in 1...3 {
        try? FileManager.default.removeItem(at: portFile)
        let log = directory.appendingPathComponent("start-\(attempt).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = ChildProcess()
        process.executableURL = python
        process.arguments = [
            CalDAVTestServer.packageRoot.appendingPathComponent("Tests/Support/caldav_server.py").path, kind.rawValue,
            storage.path, kind == .radicale ? users.path : placeholder.user, portFile.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        let errors = try FileHandle(forWritingTo: log)
        process.standardError = errors
        let lifeline = Pipe()
        // Only this process holds the write end (see `stopServer(_:)`).
        _ = fcntl(lifeline.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        process.standardInput = lifeline
        try process.run()
        try? errors.close()
        defer {
            try? lifeline.fileHandleForWriting.close()
            stopServer(process)
        }
        var port: Int?
        func readPort() {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n") {
                port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while port == nil && process.isRunning && ContinuousClock.now < deadline {
            readPort()
            if port == nil { try await Task.sleep(for: .milliseconds(25)) }
        }
        // A look after the deadline too: the tests' threads can all be held by synchronous
        // waits (a binary run, a tool), and this one may wake late to a server that started.
        if port == nil { readPort() }
        if let port, let base = URL(string: "http://127.0.0.1:\(port)/") {
            return try await body(CalDAVTestServer(kind: kind, base: base, storage: storage))
        }
        try? lifeline.fileHandleForWriting.close()
        stopServer(process)
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        failures.append("attempt \(attempt): status \(process.terminationStatus) \(said)")
    }
    Issue.record("\(kind) did not start: \(failures.joined(separator: "; "))")
    throw CancellationError()
}

/// Runs one of the CalDAV test tools (`python3 script.py`, `todo`, `vdirsyncer`) with
/// `arguments`, stdin closed, and returns what it printed; a failure fails the test with what it
/// said on both streams.
public func runTool(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> Data {
    let process = ChildProcess()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let problems = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(
        process.terminationStatus == 0,
        "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed: \(String(decoding: problems + data, as: UTF8.self))"
    )
    return data
}
