import Foundation
import Models
import Storage

// Opens an in-memory database, follows its change sets, saves a feed and one of its articles
// through the repositories, and prints what each of the two commits changed.

let database = try AppDatabase.inMemory()
let changes = database.changes()  // starts with the next commit

let feed = try await FeedRepository(database: database)
    .add(FeedSource(url: URL(filePath: "/tmp/kitchen.xml"), title: "Kitchen notes"))
let article = Article(feedID: feed.id ?? 0, uniqueID: "kitchen-1", title: "Sourdough starter, day one")
let stored = try await ArticleRepository(database: database).save(article)
print("saved feed \(feed.id ?? 0) and article \(stored.id)")

for await changeSet in changes.prefix(2) {
    for (entity, ids) in changeSet.changes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
        let inserted = ids.inserted.sorted()
        let updated = ids.updated.sorted()
        let deleted = ids.deleted.sorted()
        print("\(changeSet.source): \(entity.rawValue) inserted \(inserted) updated \(updated) deleted \(deleted)")
    }
}
