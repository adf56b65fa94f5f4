import Foundation
import Models
import Testing

@testable import Storage

@Suite("Adding many subscriptions at once")
struct FeedImportTests {
    func feed(_ index: Int, title: String? = nil) -> FeedSource {
        FeedSource(url: URL(string: "https://feeds.test/\(index).xml")!, title: title ?? "Feed \(index)")
    }

    @Test("addAll stores new URLs in one transaction, in order, and skips known and repeated ones")
    func addAllInOneTransaction() async throws {
        let database = try AppDatabase.inMemory()
        let repository = FeedRepository(database: database)
        _ = try await repository.add(feed(2))
        let changes = database.changes()
        let added = try await repository.addAll([feed(1), feed(2), feed(3), feed(1, title: "Again"), feed(4)])
        #expect(added.map(\.title) == ["Feed 1", "Feed 3", "Feed 4"])
        #expect(added.allSatisfy { $0.id != nil })
        #expect(try await repository.all().map(\.title) == ["Feed 2", "Feed 1", "Feed 3", "Feed 4"])
        // One commit: one change set with every new feed.
        var iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change[.feed].inserted == Set(added.compactMap(\.id)))
    }

    @Test("a blank title refuses the whole list; nothing is written")
    func blankTitleRefusesAll() async throws {
        let database = try AppDatabase.inMemory()
        let repository = FeedRepository(database: database)
        await #expect(throws: StorageError.missingField(entity: "feed", field: "title")) {
            _ = try await repository.addAll([feed(1), feed(2, title: "  ")])
        }
        #expect(try await repository.all().isEmpty)
    }
}
