public import Foundation
public import Models

/// What the task list view model needs from a task service: `TaskService` in the program, an
/// in-memory double in its tests.
public protocol TaskProviding: Sendable {
    /// The tasks `filter` selects, in its order.
    func list(_ filter: TaskListFilter) async throws(TaskError) -> [HouseholdTask]
    /// The stored due day of today: 00:00 UTC of the current day in the user's time zone.
    func today() throws(TaskError) -> Date
    /// The ids of tasks each commit from now on changes.
    func changes() -> AsyncStream<ChangedIDs>
}
