package import Models

/// Which tasks one collection holds: one list alone (a list shared through a collection of its
/// own, as Reminders and tasks.org keep one list per collection), or every list that has no
/// collection of its own.
package struct ChoreSyncScope: Sendable, Hashable {
    /// The list the collection holds alone; `nil` for the collection of every other list.
    package var list: String?
    /// The lists that have collections of their own (which the collection of every other list
    /// does not hold).
    package var ownLists: [String]

    package init(list: String?, ownLists: [String]) {
        self.list = list
        self.ownLists = ownLists
    }

    /// Every task, in one collection.
    package static let everything = ChoreSyncScope(list: nil, ownLists: [])

    /// The scope with its list spelt as the tasks here spell it (`--list` joins a list in any
    /// case, and keeps the first spelling): a chore received is put in that list, and one here
    /// compares equal to what it was sent as.
    package func spelled(as tasks: some Sequence<HouseholdTask>) -> ChoreSyncScope {
        guard let list else { return self }
        var scope = self
        scope.list = tasks.lazy.compactMap(\.list).first { $0.lowercased() == list.lowercased() } ?? list
        return scope
    }

    /// Whether the collection holds `task` (list names compare without case, as `--list` joins
    /// them).
    package func holds(_ task: HouseholdTask) -> Bool {
        let name = task.list?.lowercased()
        if let list { return name == list.lowercased() }
        guard let name else { return true }
        return !ownLists.contains { $0.lowercased() == name }
    }

    /// The fields of an object read from the collection: in a list's own collection, the chore
    /// is in that list whatever its `X-TIDINGS-LIST` says (Reminders writes none).
    package func received(_ fields: ChoreFields) -> ChoreFields {
        guard let list else { return fields }
        var fields = fields
        fields.list = list
        return fields
    }

    /// The fields a new object is written with: a list's own collection names no list (the
    /// collection is the list), so that a client moving it to another collection does not
    /// carry the old list's name along.
    package func sent(_ fields: ChoreFields) -> ChoreFields {
        guard list != nil else { return fields }
        var fields = fields
        fields.list = nil
        return fields
    }
}
