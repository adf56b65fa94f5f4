import Foundation
import Models
import Networking
internal import Storage

/// Large documents are parsed inside the transaction that stores them, their items merged in
/// batches as they are read: memory holds the body and one batch, never every item of a
/// 200 MB feed, and the feed is still stored whole or not at all. Smaller documents are
/// parsed first, off the writer, so that a refresh parses many feeds at once.
extension FeedService {
    /// How many items go to the database at a time.
    static let mergeBatch = 500

    /// What reading a document inside its transaction gave.
    enum BatchedParse: Sendable {
        /// The feed without its items (they went to the database), and how many there were.
        case parsed(ParsedFeed, itemCount: Int)
        /// The document is not a feed the parser can read: nothing was written.
        case failed(FeedParseError)
    }

    /// Whether `document` is read while it is stored, in batches.
    nonisolated func mergesInBatches(_ document: FetchedDocument) -> Bool {
        document.body.count >= batchThreshold
    }

    /// The work that reads `document` inside the transaction: its items merged in batches,
    /// then the feed `state` makes of what it read saved with them; nothing written when the
    /// document cannot be read.
    nonisolated static func batchedParse(
        _ document: FetchedDocument, state: @escaping @Sendable (ParsedFeed) -> FeedSource
    ) -> @Sendable (ArticleBatchMerge) throws -> (feed: FeedSource?, outcome: BatchedParse) {
        { merge in
            var batch: [Article] = []
            batch.reserveCapacity(mergeBatch)
            var failure: StorageError?
            var count = 0
            let parsed: ParsedFeed
            do throws(FeedParseError) {
                parsed = try FeedDocumentParser.parse(
                    data: document.body, url: document.url, charset: document.charset
                ) { event in
                    guard failure == nil else { return }  // the transaction is lost; the rest is skipped
                    do throws(StorageError) {
                        switch event {
                        case .item(let item):
                            count += 1
                            batch.append(item.article(feedID: merge.feedID))
                            if batch.count == mergeBatch {
                                try merge.merge(batch)
                                batch.removeAll(keepingCapacity: true)
                            }
                        case .restart:
                            count = 0
                            batch.removeAll(keepingCapacity: true)
                            try merge.restart()
                        }
                    } catch {
                        failure = error
                    }
                }
            } catch {
                return (nil, .failed(error))
            }
            if let failure { throw failure }
            try merge.merge(batch)
            return (state(parsed), .parsed(parsed, itemCount: count))
        }
    }
}
