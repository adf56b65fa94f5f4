internal import GRDB
public import Models

extension ArticleRepository {
    /// A results controller over the articles `query` matches, newest first, loading `batchSize`
    /// articles at a time.
    public func resultsController(for query: ArticleQuery, batchSize: Int = 50) -> ResultsController<StoredArticle> {
        let database = self.database
        let repository = self
        return ResultsController(
            batchSize: batchSize,
            fetchIDs: { () async throws(StorageError) -> [Int64] in
                try await repository.readSearching(query) { db in
                    guard let (sql, arguments) = try Self.idsSQL(db, query) else { return [] }
                    return try Int64.fetchAll(db, sql: sql, arguments: arguments)
                }
            },
            fetchObjects: { (ids: [Int64]) async throws(StorageError) -> [Int64: StoredArticle] in
                try await database.read { db in
                    Dictionary(uniqueKeysWithValues: try Self.fetch(db, ids: ids).map { ($0.id, $0) })
                }
            })
    }
}
