import Foundation
import Models
import Testing

@testable import Chores

@Suite("Merging a chore changed on both sides")
struct ChoreMergeTests {
    let base = ChoreFields(name: "Bins", note: "blue", due: ChoreObjectTests.day("2024-11-05"))

    @Test("changes to different fields are both kept, with no conflict")
    func differentFields() throws {
        var local = base
        local.note = "blue and green"
        var remote = base
        remote.due = ChoreObjectTests.day("2024-11-12")
        remote.frequency = try Frequency(count: 1, unit: .week)
        let (merged, conflicts) = ChoreMerge.merge(base: base, local: local, remote: remote)
        #expect(merged.note == "blue and green" && merged.due == remote.due && merged.frequency == remote.frequency)
        #expect(merged.name == "Bins" && conflicts.isEmpty)
    }

    @Test("a field both changed differently takes the other side's change and is reported")
    func sameField() {
        var local = base
        local.name = "Bins (mine)"
        local.note = "same on both"
        var remote = base
        remote.name = "Bins (theirs)"
        remote.note = "same on both"
        let (merged, conflicts) = ChoreMerge.merge(base: base, local: local, remote: remote)
        #expect(merged.name == "Bins (theirs)" && merged.note == "same on both")
        #expect(conflicts == ["name"])
    }

    @Test("nothing changed on one side: the other side's fields, whatever they are")
    func oneSided() {
        var remote = base
        remote.isDone = true
        remote.completed = ChoreObjectTests.now
        #expect(ChoreMerge.merge(base: base, local: base, remote: remote) == (remote, []))
        #expect(ChoreMerge.merge(base: base, local: remote, remote: base) == (remote, []))
    }
}
