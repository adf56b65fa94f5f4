public import Foundation
internal import GRDB
public import Models

/// What a sync keeps: the marks not yet sent, the account's feeds and articles, their states.
extension AccountRepository {
    /// The marks of `account` not yet sent, oldest first.
    public func pendingMarks(account: Int64) async throws(StorageError) -> [StoredAccountMark] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT seq, kind, target, now, was, before FROM accountMark WHERE accountId = ? ORDER BY seq",
                arguments: [account]
            ).compactMap { row in
                guard let kind = StoredAccountMark.Kind(rawValue: row[1]) else { return nil }
                return StoredAccountMark(
                    sequence: row[0], kind: kind, target: row[2], now: (row[3] as Bool?) ?? false,
                    was: (row[4] as Bool?) ?? false, before: (row[5] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    /// Forgets marks (sent, or with nothing left to change).
    public func removeMarks(_ sequences: [Int64], account: Int64) async throws(StorageError) {
        guard !sequences.isEmpty else { return }
        try await database.write(source: .app) { db in
            for chunk in sequences.chunked(into: 500) {
                try db.execute(
                    sql: "DELETE FROM accountMark WHERE accountId = ? AND seq IN (\(Self.placeholders(chunk.count)))",
                    arguments: [account] + StatementArguments(chunk))
            }
        }
    }

    /// Marks every article of the account's feed `feedID` read, as the user did it: one
    /// `feedRead` mark for the server (with the time), not one per article.
    public func markFeedRead(_ feedID: Int64, before: Date) async throws(StorageError) {
        let tracker = database.tracker
        try await database.write(source: .user) { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT accountId, remoteId FROM feed WHERE id = ? AND accountId IS NOT NULL",
                    arguments: [feedID])
            else { throw StorageError.notFound(entity: "account feed", id: feedID) }
            let account: Int64 = row[0]
            let remote: String = row[1]
            try db.execute(sql: "UPDATE account SET applying = 1 WHERE id = ?", arguments: [account])
            let changed = try Int64.fetchAll(
                db,
                sql: """
                    SELECT article.id FROM article JOIN articleStatus USING (feedId, uniqueId)
                    WHERE article.feedId = ? AND articleStatus.isRead = 0
                    """, arguments: [feedID])
            try db.execute(
                sql: "UPDATE articleStatus SET isRead = 1 WHERE feedId = ? AND isRead = 0", arguments: [feedID])
            try db.execute(sql: "UPDATE account SET applying = 0 WHERE id = ?", arguments: [account])
            try db.execute(
                sql: "INSERT INTO accountMark (accountId, kind, target, before) VALUES (?, 'feedRead', ?, ?)",
                arguments: [account, remote, before.timeIntervalSince1970])
            tracker.record(.article, updated: changed)
        }
    }

    /// Makes the account's feeds `feeds`: new ones added, known ones updated (title, address,
    /// folders), the ones no longer listed removed with their articles. Returns the local id of
    /// each remote feed, and how many were added and removed.
    public func replaceFeeds(_ feeds: [AccountFeed], account: Int64) async throws(StorageError)
        -> (ids: [String: Int64], added: Int, removed: Int)
    {
        let tracker = database.tracker
        return try await database.write(source: .app) { db in
            // The account's feeds as stored: what the server's list is compared with, so that a
            // quiet sync writes nothing.
            var known: [String: Int64] = [:]
            var stored: [Int64: (url: String, title: String, home: String?)] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT remoteId, id, url, title, homePageURL FROM feed WHERE accountId = ?",
                arguments: [account])
            {
                known[row[0]] = row[1]
                stored[row[1]] = (row[2], row[3], row[4])
            }
            let listed = Set(feeds.map(\.remoteID))
            let gone = known.filter { !listed.contains($0.key) }
            for (remote, id) in gone {
                try db.execute(sql: "DELETE FROM feed WHERE id = ?", arguments: [id])
                known[remote] = nil
            }
            var added = 0
            var updated: [Int64] = []
            var storedTags: [Int64: [String]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT feedId, tag FROM feedTag WHERE feedId IN (SELECT id FROM feed WHERE accountId = ?)
                    ORDER BY feedId, position
                    """, arguments: [account])
            {
                storedTags[row[0], default: []].append(row[1])
            }
            for feed in feeds {
                let url = feed.url?.absoluteString ?? ""
                let title = feed.title.isEmpty ? (feed.url?.absoluteString ?? feed.remoteID) : feed.title
                let home = feed.homePageURL?.absoluteString
                if let id = known[feed.remoteID] {
                    if let old = stored[id], old.url != url || old.title != title || old.home != home {
                        try db.execute(
                            sql: "UPDATE feed SET url = ?, title = ?, homePageURL = ? WHERE id = ?",
                            arguments: [url, title, home, id])
                        updated.append(id)
                    }
                } else {
                    try db.execute(
                        sql: "INSERT INTO feed (url, title, homePageURL, accountId, remoteId) VALUES (?, ?, ?, ?, ?)",
                        arguments: [url, title, home, account, feed.remoteID])
                    known[feed.remoteID] = db.lastInsertedRowID
                    added += 1
                }
                guard let id = known[feed.remoteID] else { continue }
                let folders = feed.folders.filter { !$0.isEmpty }
                guard storedTags[id, default: []] != folders else { continue }
                try db.execute(sql: "DELETE FROM feedTag WHERE feedId = ?", arguments: [id])
                for (position, folder) in folders.enumerated() {
                    try db.execute(
                        sql: "INSERT INTO feedTag (feedId, tag, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                        arguments: [id, folder, position])
                }
            }
            tracker.record(.feed, updated: updated)
            return (known, added, gone.count)
        }
    }

    /// How many feeds each account has.
    public func feedCounts() async throws(StorageError) -> [Int64: Int] {
        try await database.read { db in
            Dictionary(
                try Row.fetchAll(
                    db, sql: "SELECT accountId, count(*) FROM feed WHERE accountId IS NOT NULL GROUP BY accountId"
                ).map { ($0[0] as Int64, $0[1] as Int) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// How many marks wait to be sent for each account that has any.
    public func pendingMarkCounts() async throws(StorageError) -> [Int64: Int] {
        try await database.read { db in
            Dictionary(
                try Row.fetchAll(db, sql: "SELECT accountId, count(*) FROM accountMark GROUP BY accountId")
                    .map { ($0[0] as Int64, $0[1] as Int) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The local id of each of the account's feeds, by the server's id.
    public func feedIDs(account: Int64) async throws(StorageError) -> [String: Int64] {
        try await database.read { db in
            Dictionary(
                try Row.fetchAll(db, sql: "SELECT remoteId, id FROM feed WHERE accountId = ?", arguments: [account])
                    .map { ($0[0] as String, $0[1] as Int64) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The greatest server item id stored for `account`.
    public func itemCursor(account: Int64) async throws(StorageError) -> Int64 {
        try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT itemCursor FROM account WHERE id = ?", arguments: [account]) ?? 0
        }
    }

    /// Stores articles of the account's feeds (new ones unread and unstarred, known ones
    /// updated) and sets its cursor, in one transaction. Returns how many were new.
    public func storeArticles(_ articles: [Article], cursor: Int64, account: Int64, now: Date = Date())
        async throws(StorageError) -> Int
    {
        for article in articles { try ArticleRepository.validate(article) }
        let tracker = database.tracker
        return try await database.write(source: .app) { db in
            var inserted: [Int64] = []
            var updated: [Int64] = []
            for (feedID, group) in Dictionary(grouping: articles, by: \.feedID) {
                let owner = try Int64.fetchOne(db, sql: "SELECT accountId FROM feed WHERE id = ?", arguments: [feedID])
                guard owner == account else { throw StorageError.notFound(entity: "account feed", id: feedID) }
                let merge = try ArticleRepository.merge(db, group, intoFeed: feedID, now: now, cutoff: .distantPast)
                inserted += merge.inserted
                updated += merge.updated
            }
            try db.execute(
                sql: "UPDATE account SET itemCursor = max(itemCursor, ?) WHERE id = ?", arguments: [cursor, account])
            tracker.record(.article, updated: updated)
            return inserted.count
        }
    }

    /// The `uniqueId`s among `uniqueIDs` of articles stored in the account's feeds.
    public func storedArticles(among uniqueIDs: Set<String>, account: Int64) async throws(StorageError) -> Set<String> {
        guard !uniqueIDs.isEmpty else { return [] }
        return try await database.read { db in
            // One pass over the account's articles (through the feed index), not a query per
            // 500 ids: a quiet sync asks about every unread item.
            var found = Set<String>()
            let rows = try String.fetchCursor(
                db,
                sql: """
                    SELECT article.uniqueId FROM feed JOIN article ON article.feedId = feed.id
                    WHERE feed.accountId = ?
                    """, arguments: [account])
            while let uniqueID = try rows.next() {
                if uniqueIDs.contains(uniqueID) { found.insert(uniqueID) }
            }
            return found
        }
    }

    /// Sets the read and starred states of the account's articles to the server's (`unread`,
    /// `starred`: the `uniqueId`s that are), except a state a pending mark holds (an article's
    /// read state when it or its feed was marked, its star when it was starred); sends nothing
    /// back (the account's `applying` is set meanwhile). Returns how many changed of each.
    public func applyStates(unread: Set<String>, starred: Set<String>, account: Int64) async throws(StorageError)
        -> (read: Int, starred: Int)
    {
        let tracker = database.tracker
        return try await database.write(source: .app) { db in
            try db.execute(
                sql: "CREATE TEMP TABLE IF NOT EXISTS accountUnread (uniqueId TEXT PRIMARY KEY) WITHOUT ROWID")
            try db.execute(
                sql: "CREATE TEMP TABLE IF NOT EXISTS accountStarred (uniqueId TEXT PRIMARY KEY) WITHOUT ROWID")
            try db.execute(sql: "DELETE FROM temp.accountUnread; DELETE FROM temp.accountStarred")
            let addUnread = try db.makeStatement(sql: "INSERT OR IGNORE INTO temp.accountUnread VALUES (?)")
            for id in unread { try addUnread.execute(arguments: [id]) }
            let addStarred = try db.makeStatement(sql: "INSERT OR IGNORE INTO temp.accountStarred VALUES (?)")
            for id in starred { try addStarred.execute(arguments: [id]) }
            // The account's statuses whose flag no pending mark holds: for the read state, a
            // mark of the article's or of its feed's; for the star, one of the article's.
            func scope(_ kind: String) -> String {
                var scope = """
                    feedId IN (SELECT id FROM feed WHERE accountId = ?1)
                    AND uniqueId NOT IN (SELECT target FROM accountMark WHERE accountId = ?1 AND kind = '\(kind)')
                    """
                if kind == "read" {
                    scope += """

                        AND feedId NOT IN (
                            SELECT feed.id FROM feed JOIN accountMark ON accountMark.accountId = feed.accountId
                            AND accountMark.kind = 'feedRead' AND accountMark.target = feed.remoteId
                            WHERE feed.accountId = ?1)
                        """
                }
                return scope
            }
            let changedRead = try Int64.fetchAll(
                db,
                sql: """
                    SELECT article.id FROM article JOIN articleStatus USING (feedId, uniqueId)
                    WHERE \(scope("read"))
                    AND articleStatus.isRead = (uniqueId IN (SELECT uniqueId FROM temp.accountUnread))
                    """, arguments: [account])
            let changedStar = try Int64.fetchAll(
                db,
                sql: """
                    SELECT article.id FROM article JOIN articleStatus USING (feedId, uniqueId)
                    WHERE \(scope("starred"))
                    AND articleStatus.isStarred <> (uniqueId IN (SELECT uniqueId FROM temp.accountStarred))
                    """, arguments: [account])
            // Only the statuses that change are written (a quiet sync of 10,000 items rewrote
            // them all: 180 ms).
            try db.execute(sql: "UPDATE account SET applying = 1 WHERE id = ?", arguments: [account])
            try db.execute(
                sql: """
                    UPDATE articleStatus SET isRead = NOT isRead
                    WHERE \(scope("read")) AND isRead = (uniqueId IN (SELECT uniqueId FROM temp.accountUnread))
                    """, arguments: [account])
            try db.execute(
                sql: """
                    UPDATE articleStatus SET isStarred = NOT isStarred
                    WHERE \(scope("starred")) AND isStarred <> (uniqueId IN (SELECT uniqueId FROM temp.accountStarred))
                    """, arguments: [account])
            try db.execute(sql: "UPDATE account SET applying = 0 WHERE id = ?", arguments: [account])
            try db.execute(sql: "DELETE FROM temp.accountUnread; DELETE FROM temp.accountStarred")
            tracker.record(.article, updated: Array(Set(changedRead + changedStar)))
            return (changedRead.count, changedStar.count)
        }
    }

    /// Records the end of a complete sync (`problem` nil), or why the last one stopped.
    public func recordSync(account: Int64, at date: Date, problem: String?) async throws(StorageError) {
        try await database.write(source: .app) { db in
            if let problem {
                try db.execute(sql: "UPDATE account SET problem = ? WHERE id = ?", arguments: [problem, account])
            } else {
                try db.execute(
                    sql: "UPDATE account SET problem = NULL, syncedAt = ? WHERE id = ?",
                    arguments: [date.timeIntervalSince1970, account])
            }
        }
    }
}
