internal import GRDB

extension AppDatabase {
    /// Migration "v2-task-undo": the stored undo history of task changes (see
    /// `TaskRepository.undo(source:)`), newest last and bounded by the repository.
    ///
    /// `taskId` has no foreign key: an entry must outlive the task it can bring back. `task` is
    /// the JSON of the task row before the change (NULL for an add), `completions` the JSON of
    /// the completion rows a removal deleted, and `completionId` the row a completion added.
    static func createTaskUndoTable(_ db: Database) throws {
        try db.create(table: "taskUndo") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("kind", .text).notNull().check { ["add", "edit", "complete", "remove"].contains($0) }
            table.column("taskId", .integer).notNull()
            table.column("task", .text)
            table.column("completions", .text)
            table.column("completionId", .integer)
        }
    }
}
