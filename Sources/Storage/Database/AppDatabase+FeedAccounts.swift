internal import GRDB

extension AppDatabase {
    /// Feed accounts: a feed server (Fever) that owns an account's subscriptions. `account`
    /// holds where it is and who the user is (never a password), the last sync's end or
    /// failure, and the greatest item id stored (where the next sync's paging starts);
    /// `accountMark` the read, star and feed-read marks made here and not yet sent, in order,
    /// each with the state it changed (so that one undone before the sync is not sent). Triggers
    /// write an account article's marks whatever changed its status (a command, a rule, marking
    /// a feed read); the sync applies the server's states with its account's `applying` set, so
    /// that they are not sent back.
    ///
    /// An account's feeds are rows of `feed` with `accountId` and the server's `remoteId`, so
    /// that every list, count, search, rule and view treats their articles as any other. Their
    /// URL may also be subscribed here directly, or through another account: `feed` is rebuilt
    /// without its `UNIQUE (url)`, which becomes a unique index of the local subscriptions
    /// (`accountId IS NULL`), beside one of `(accountId, remoteId)` for the accounts'. The
    /// rebuild keeps every row, id and the id sequence (ids are never reused).
    static func createFeedAccounts(_ db: Database) throws {
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'feed'")
        try db.execute(
            sql: """
                CREATE TABLE account (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL CHECK (kind IN ('fever')),
                    endpoint TEXT NOT NULL,
                    user TEXT NOT NULL,
                    createdAt DOUBLE NOT NULL,
                    syncedAt DOUBLE,
                    problem TEXT,
                    itemCursor INTEGER NOT NULL DEFAULT 0,
                    applying INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (kind, endpoint, user));
                CREATE TABLE accountMark (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('read', 'starred', 'feedRead')),
                    target TEXT NOT NULL,
                    now INTEGER,
                    was INTEGER,
                    before DOUBLE);
                CREATE INDEX accountMark_account ON accountMark(accountId, seq);
                CREATE TABLE feed_rebuilt (
                    "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                    "url" TEXT NOT NULL,
                    "title" TEXT NOT NULL,
                    "homePageURL" TEXT,
                    "format" TEXT,
                    "etag" TEXT,
                    "lastModified" TEXT,
                    "contentHash" TEXT,
                    "lastResult" TEXT,
                    "lastRefreshedAt" DOUBLE,
                    "isGone" BOOLEAN NOT NULL DEFAULT 0,
                    "retryAfter" DOUBLE,
                    pace REAL,
                    keepItems INTEGER,
                    keepDays INTEGER,
                    accountId INTEGER REFERENCES account(id) ON DELETE CASCADE,
                    remoteId TEXT,
                    CHECK ((accountId IS NULL) = (remoteId IS NULL)));
                INSERT INTO feed_rebuilt (
                    id, url, title, homePageURL, format, etag, lastModified, contentHash, lastResult,
                    lastRefreshedAt, isGone, retryAfter, pace, keepItems, keepDays)
                SELECT id, url, title, homePageURL, format, etag, lastModified, contentHash, lastResult,
                    lastRefreshedAt, isGone, retryAfter, pace, keepItems, keepDays FROM feed;
                DROP TABLE feed;
                ALTER TABLE feed_rebuilt RENAME TO feed;
                CREATE UNIQUE INDEX feed_url_local ON feed(url) WHERE accountId IS NULL;
                CREATE UNIQUE INDEX feed_account_remote ON feed(accountId, remoteId) WHERE accountId IS NOT NULL;
                CREATE TRIGGER accountMark_read AFTER UPDATE OF isRead ON articleStatus
                WHEN new.isRead IS NOT old.isRead BEGIN
                    INSERT INTO accountMark (accountId, kind, target, now, was)
                    SELECT account.id, 'read', new.uniqueId, new.isRead, old.isRead FROM feed JOIN account ON account.id = feed.accountId
                    WHERE feed.id = new.feedId AND account.applying = 0;
                END;
                CREATE TRIGGER accountMark_starred AFTER UPDATE OF isStarred ON articleStatus
                WHEN new.isStarred IS NOT old.isStarred BEGIN
                    INSERT INTO accountMark (accountId, kind, target, now, was)
                    SELECT account.id, 'starred', new.uniqueId, new.isStarred, old.isStarred FROM feed JOIN account ON account.id = feed.accountId
                    WHERE feed.id = new.feedId AND account.applying = 0;
                END;
                """)
        try db.checkForeignKeys(in: "feed")
        if let sequence {
            try db.execute(
                sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'feed'", arguments: [sequence])
            if db.changesCount == 0 {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('feed', ?)", arguments: [sequence])
            }
        }
    }
}
