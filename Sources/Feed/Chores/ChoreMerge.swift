/// Merges a chore changed on both sides since the last sync, field by field against what both
/// last agreed on: a field changed on one side only takes that change; a field both changed
/// the same way keeps it; a field both changed differently takes the server's (the other
/// device's) change and is reported as a conflict, so nothing is lost silently.
package enum ChoreMerge {
    /// The merged fields and the names of the fields both sides changed differently.
    package static func merge(base: ChoreFields, local: ChoreFields, remote: ChoreFields)
        -> (fields: ChoreFields, conflicts: [String])
    {
        var merged = remote
        var conflicts: [String] = []
        func field<Value: Equatable>(_ name: String, _ path: WritableKeyPath<ChoreFields, Value>) {
            let (old, mine, theirs) = (base[keyPath: path], local[keyPath: path], remote[keyPath: path])
            if theirs == old {
                merged[keyPath: path] = mine
            } else if mine != old, mine != theirs {
                conflicts.append(name)  // both changed it differently: theirs stays
            }
        }
        field("name", \.name)
        field("note", \.note)
        field("due", \.due)
        field("frequency", \.frequency)
        field("done", \.isDone)
        field("completed", \.completed)
        field("link", \.link)
        return (merged, conflicts)
    }
}
