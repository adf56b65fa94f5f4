import CalDAVTestSupport
import Foundation
import Models
import Testing

@testable import Chores

/// A chore's completions, with the home that recorded each, shared through its object.
@Suite("Chore history through CalDAV", .timeLimit(.minutes(10)))
struct ChoreHistoryTests {
    static func entry(_ seconds: TimeInterval, _ device: String? = nil) -> ChoreCompletion {
        ChoreCompletion(at: ChoreHome.now.addingTimeInterval(seconds), device: device)
    }

    @Test("the history is written as X-TIDINGS-DONE lines with the device, and reads back the same")
    func object() throws {
        var fields = ChoreFields(
            name: "Plants", due: ChoreObjectTests.day("2026-11-24"), frequency: try .every(1, .day))
        fields.history = [Self.entry(0, "Kitchen \"north\", by the window"), Self.entry(60), Self.entry(120, "Hall")]
        let object = ChoreObject(uid: "h-1", fields: fields, now: ChoreHome.now, calendar: ChoreHome.utc)
        let lines = ChoreSyncFailureTests.unfolded(object.calendar.text).filter { $0.hasPrefix("X-TIDINGS-DONE") }
        #expect(
            lines == [
                "X-TIDINGS-DONE;X-DEVICE=\"Kitchen ^'north^', by the window\":20261123T120000Z",
                "X-TIDINGS-DONE:20261123T120100Z", "X-TIDINGS-DONE;X-DEVICE=Hall:20261123T120200Z",
            ])
        #expect(
            try ChoreObject(parsing: object.calendar.text).fields(calendar: ChoreHome.utc).history == fields.history)
    }

    @Test("the object keeps the newest 50, one per second; a device name loses its control characters")
    func window() {
        let many = (0..<60).map { Self.entry(Double($0) * 60, "d\u{07}\($0)") } + [Self.entry(0.4, "again")]
        let kept = ChoreCompletion.normalized(many)
        #expect(kept.count == 50 && kept.first?.at == Self.entry(600).at && kept.last?.device == "d59")
    }

    @Test("three-way: completions made on both sides are kept, one taken back on either side goes")
    func merge() {
        let base = [Self.entry(0, "A"), Self.entry(60, "B")]
        let local = [Self.entry(0, "A"), Self.entry(60, "B"), Self.entry(120, "A")]  // A did it again
        let remote = [Self.entry(0, "A"), Self.entry(180, "B")]  // B took back 60 and did it at 180
        #expect(
            ChoreCompletion.merge(base: base, local: local, remote: remote) == [
                Self.entry(0, "A"), Self.entry(120, "A"), Self.entry(180, "B"),
            ])
        // An entry that only left the window of the newest 50 was not taken back.
        let full = (0..<50).map { Self.entry(Double($0) * 60) }
        let pushed = Array(full.dropFirst()) + [Self.entry(50 * 60)]
        #expect(ChoreCompletion.merge(base: full, local: full, remote: pushed) == pushed)
    }

    @Test("two homes see every completion with the home that recorded it; one taken back goes on both")
    func twoHomesShareHistory() async throws {
        try await withCalDAVServer(.radicale) { server in
            let (a, b, _) = try await twoHomes(server)
            let kitchen = TaskService(
                store: a.store, now: { ChoreHome.now }, calendar: ChoreHome.utc, device: "Kitchen")
            let hall = TaskService(
                store: b.store, now: { ChoreHome.now.addingTimeInterval(3600) }, calendar: ChoreHome.utc,
                device: "Hall")
            let plants = try await kitchen.add(
                name: "Plants", due: ChoreObjectTests.day("2026-11-20"), frequency: try .every(1, .day))
            _ = try await kitchen.complete(id: try #require(plants.id))
            _ = try await a.sync.sync()
            _ = try await b.sync.sync()
            let onB = try #require(try await b.task("Plants").id)
            #expect(try await hall.completions(id: onB).map(\.device) == ["Kitchen"])
            _ = try await hall.complete(id: onB)
            _ = try await b.sync.sync()
            _ = try await a.sync.sync()
            let onA = try #require(plants.id)
            let seen = try await kitchen.completions(id: onA)
            #expect(seen.map(\.device) == ["Kitchen", "Hall"], "\(seen)")
            #expect(seen.map(\.completedAt) == [ChoreHome.now, ChoreHome.now.addingTimeInterval(3600)])
            // Taken back in the hall: gone in the kitchen too; nothing more moves after.
            _ = try await hall.undo()
            for home in [b, a] { _ = try await home.sync.sync() }
            #expect(try await kitchen.completions(id: onA).map(\.device) == ["Kitchen"])
            #expect(try await a.sync.sync() == ChoreSyncSummary())
            #expect(try await b.sync.sync() == ChoreSyncSummary())
        }
    }
}
