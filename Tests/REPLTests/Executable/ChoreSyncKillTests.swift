import CalDAVTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `task sync` killed with SIGKILL at moments spread over its work, again and again, resumes
/// without duplicates or losses.
@Suite("task sync killed midway", .serialized, .timeLimit(.minutes(10)))
struct ChoreSyncKillTests {
    static let count = 120

    @Test(
        "syncs killed at any moment, then one that ends: every chore is on the server once, and the other home gets exactly them"
    )
    func killedSyncs() async throws {
        try await withRadicale { server in
            let password = ["TIDINGS_CALDAV_PASSWORD": server.password]
            func home() throws -> ChoreSyncCommandTests.Home { try ChoreSyncCommandTests.Home(netrc: nil) }
            let adds = (1...Self.count).map {
                "task add \"Chore \($0)\" --due 2026-12-\(String(format: "%02d", $0 % 28 + 1))"
            }

            // How long a whole first sync takes here, to spread the kills over it.
            let probe = try home()
            defer { try? FileManager.default.removeItem(at: probe.directory) }
            let probeURL = try server.makeCalendar("probe")
            _ = try probe.run(["task sync setup \(probeURL.absoluteString) --user alice"] + adds, environment: password)
            let started = Date()
            let probed = try probe.run(["task sync"], environment: password)
            let whole = Date().timeIntervalSince(started)
            #expect(probed.status == 0, "\(probed.err)")

            let chores = try server.makeCalendar("chores")
            let a = try home()
            defer { try? FileManager.default.removeItem(at: a.directory) }
            let setUp = try a.run(
                ["task sync setup \(chores.absoluteString) --user alice"] + adds, environment: password)
            #expect(setUp.status == 0, "\(setUp.err)")
            var killed = 0
            // A kill that came after its sync had finished halves the delays after it (down to an
            // eighth, so that kills still land inside the sync, not in its start-up): the probe
            // may have run on a busier machine than the syncs it measured for.
            var scale = 1.0
            let environment = a.environment.merging(password) { _, new in new }
            func killedSync(after delay: Double) async throws {
                let process = try TidingsBinary.start(
                    ["--home", a.tidings, "-c", "task sync"], environment: environment)
                await TidingsBinary.kill(process, after: delay * scale)
                if process.terminationReason == .uncaughtSignal { killed += 1 } else { scale = max(scale / 2, 1.0 / 8) }
            }
            for step in 1..<8 { try await killedSync(after: whole * Double(step) / 8) }
            let objects = server.storage.appendingPathComponent("collection-root/alice/chores")
            let partial = try FileManager.default.contentsOfDirectory(atPath: objects.path).filter {
                $0.hasSuffix(".ics")
            }
            let finished = try a.run(["task sync"], environment: password)
            #expect(finished.status == 0, "\(finished.err)")
            let files = try FileManager.default.contentsOfDirectory(atPath: objects.path).filter {
                $0.hasSuffix(".ics")
            }
            #expect(files.count == Self.count, "\(partial.count) after the kills, \(files.count) at the end")

            // Phase two: changes and deletions, killed again.
            let edits =
                (1...20).map { "task edit \($0) --note \"changed \($0)\"" } + (21...40).map { "task remove \($0)" }
            #expect(try a.run(edits, environment: password).status == 0)
            for step in 1..<6 { try await killedSync(after: whole * Double(step) / 16) }
            #expect(try a.run(["task sync"], environment: password).status == 0)
            #expect(
                try a.run(["task sync"], environment: password).out.contains("synced: sent 0, received 0, deleted 0"))

            let b = try home()
            defer { try? FileManager.default.removeItem(at: b.directory) }
            let received = try b.run(
                ["task sync setup \(chores.absoluteString) --user alice", "task sync", "task list --all"], json: true,
                environment: password)
            #expect(received.status == 0, "\(received.err)")
            let mine = try a.run(["task list --all"], json: true, environment: password)
            func tasks(_ line: some StringProtocol) throws -> [String] {
                let document = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return ((document?["tasks"] as? [[String: Any]]) ?? []).map {
                    "\($0["name"] ?? "")|\($0["note"] ?? "")|\($0["due"] ?? "")"
                }.sorted()
            }
            let theirs = try tasks(received.out.split(separator: "\n").last ?? "")
            #expect(theirs.count == Self.count - 20)
            #expect(theirs == (try tasks(mine.out)))
            #expect(Set(theirs.map { $0.split(separator: "|")[0] }).count == theirs.count)
            // Some kills landed before their sync finished (the test would prove nothing otherwise).
            #expect(killed >= 4, "\(killed) kills landed")
        }
    }

    @Test("two processes syncing one home at once (a session's background sync and a script) send every chore once")
    func concurrentSyncs() async throws {
        try await withRadicale { server in
            let password = ["TIDINGS_CALDAV_PASSWORD": server.password]
            let chores = try server.makeCalendar("chores")
            let home = try ChoreSyncCommandTests.Home(netrc: nil)
            defer { try? FileManager.default.removeItem(at: home.directory) }
            let adds = (1...Self.count).map { "task add \"Chore \($0)\"" }
            #expect(
                try home.run(["task sync setup \(chores.absoluteString) --user alice"] + adds, environment: password)
                    .status == 0)
            for round in 0..<3 {
                if round > 0 {
                    let edits = (1...10).map { "task edit \($0 + round * 10) --note \"round \(round)\"" }
                    _ = try home.run(edits + ["task add \"New in round \(round)\""], environment: password)
                }
                let environment = home.environment.merging(password) { _, new in new }
                let processes = try (0..<2).map { _ in
                    try TidingsBinary.start(["--home", home.tidings, "-c", "task sync"], environment: environment)
                }
                for process in processes { process.waitUntilExit() }
            }
            // Whatever one of them could not finish, a last sync does.
            #expect(try home.run(["task sync"], environment: password).status == 0)
            let objects = server.storage.appendingPathComponent("collection-root/alice/chores")
            let files = try FileManager.default.contentsOfDirectory(atPath: objects.path).filter {
                $0.hasSuffix(".ics")
            }
            #expect(files.count == Self.count + 2)
            let other = try ChoreSyncCommandTests.Home(netrc: nil)
            defer { try? FileManager.default.removeItem(at: other.directory) }
            let received = try other.run(
                ["task sync setup \(chores.absoluteString) --user alice", "task sync", "task list --all"], json: true,
                environment: password)
            let mine = try home.run(["task list --all"], json: true, environment: password)
            func tasks(_ line: some StringProtocol) throws -> [String] {
                let document = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return ((document?["tasks"] as? [[String: Any]]) ?? []).map {
                    "\($0["name"] ?? "")|\($0["note"] ?? "")"
                }
                .sorted()
            }
            #expect(try tasks(received.out.split(separator: "\n").last ?? "") == (try tasks(mine.out)))
        }
    }
}
