internal import GRDB

extension AppDatabase {
    /// Every schema change, in order. Never edit a migration that has shipped: add a new one.
    ///
    /// Dates are stored as seconds since 1970 (REAL): they sort and compare as numbers and cost
    /// no formatting on the merge path.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try createFeedTables(db)
            try createArticleSearch(db)
            try createTaskTables(db)
            try createCacheTables(db)
        }
        migrator.registerMigration("v2-feed-polling") { db in
            try db.alter(table: "feed") { table in
                table.add(column: "isGone", .boolean).notNull().defaults(to: false)
                table.add(column: "retryAfter", .double)
            }
        }
        migrator.registerMigration("v2-task-undo", migrate: createTaskUndoTable)
        migrator.registerMigration("v3-unread-index") { db in
            // Unread counts per feed (`feed list`) read this index alone.
            try db.execute(sql: "CREATE INDEX articleStatus_unread ON articleStatus(feedId) WHERE isRead = 0")
        }
        migrator.registerMigration("v4-task-anchor") { db in
            // The occurrence a recurring task counts from, so month ends do not drift.
            try db.alter(table: "task") { table in table.add(column: "anchorDate", .double) }
        }
        migrator.registerMigration("v5-config-source") { db in
            // The URL the cached config came from: its validators are sent only to that URL.
            try db.alter(table: "configCache") { table in table.add(column: "sourceURL", .text) }
            // The last refresh attempt, failed ones included, for `config show`.
            try db.create(table: "configAttempt") { table in
                table.column("id", .integer).primaryKey().check { $0 == 1 }
                table.column("at", .double).notNull()
                table.column("result", .text).notNull()
            }
        }
        // From v6 on, migrations run with foreign keys enforced as they go (`.immediate`), instead
        // of GRDB's default: a check of every foreign key in the file after each migration,
        // which reads the whole file. None of them moves a reference.
        migrator.registerMigration("v6-substring-search", foreignKeyChecks: .immediate, migrate: createSubstringSearch)
        migrator.registerMigration("v7-no-http-cache", foreignKeyChecks: .immediate) { db in
            // No code path stored HTTP bodies: feeds keep their validators in their rows and the
            // configuration in its own cache.
            try db.drop(table: "httpCache")
        }
        migrator.registerMigration("v8-substring-tokenizer", foreignKeyChecks: .immediate) { db in
            // The substring index keeps each trigram of a text once and none a search cannot ask
            // for (see CSQLiteShims): half the indexing time. Both indexes are built
            // again by the next refresh, or the next search, in batches.
            try db.execute(
                sql: """
                    DROP TABLE articleSubstringTerms;
                    DROP TABLE articleSubstring;
                    CREATE VIRTUAL TABLE articleSubstring USING fts5(
                        title, body, content='', detail=none, columnsize=0, tokenize='tidings_trigram');
                    CREATE VIRTUAL TABLE articleSubstringTerms USING fts5vocab(articleSubstring, 'instance');
                    INSERT INTO articleSearch(articleSearch) VALUES ('delete-all');
                    UPDATE articleSearchState SET indexedThrough = 0;
                    """)
        }
        migrator.registerMigration("v9-article-counts", foreignKeyChecks: .immediate, migrate: createArticleCounts)
        migrator.registerMigration("v10-chore-sync", foreignKeyChecks: .immediate, migrate: createChoreSync)
        migrator.registerMigration("v11-chore-sync-undo", foreignKeyChecks: .immediate) { db in
            // A task deleted and brought back by `task undo` (the same id: ids are never reused
            // otherwise) gets its object back, so the next sync neither deletes the chore on the
            // server nor sends it again as a new one.
            try db.execute(
                sql: """
                    ALTER TABLE choreSyncItem ADD COLUMN formerTaskId INTEGER;
                    CREATE TRIGGER choreSyncItem_taskDeleted BEFORE DELETE ON task BEGIN
                        UPDATE choreSyncItem SET formerTaskId = OLD.id WHERE taskId = OLD.id;
                    END;
                    CREATE TRIGGER choreSyncItem_taskRestored AFTER INSERT ON task BEGIN
                        UPDATE choreSyncItem SET taskId = NEW.id, formerTaskId = NULL
                        WHERE taskId IS NULL AND formerTaskId = NEW.id;
                    END;
                    """)
        }
        migrator.registerMigration("v12-word-index-without-positions", foreignKeyChecks: .immediate) { db in
            // The word index keeps which articles hold each word, not where: searches never ask
            // it for phrases, columns or rank. Smaller, and quicker to build. Both indexes are
            // built again by the next refresh, or the next search, in batches; the triggers of v6
            // keep working on the new table.
            try db.execute(
                sql: """
                    DROP TABLE articleSearch;
                    CREATE VIRTUAL TABLE articleSearch USING fts5(
                        title, body, content='', detail=none, columnsize=0,
                        tokenize='unicode61 remove_diacritics 2');
                    INSERT INTO articleSubstring(articleSubstring) VALUES ('delete-all');
                    UPDATE articleSearchState SET indexedThrough = 0;
                    """)
        }
        migrator.registerMigration("v13-search-vocabulary-counts", foreignKeyChecks: .immediate) { db in
            // How many articles hold each term of the two indexes, read (never stored) from the
            // indexes themselves: a search estimates its matches from them to choose its plan
            // (`ArticleRepository.searchWalksDates`).
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE articleSearchRows USING fts5vocab(articleSearch, 'row');
                    CREATE VIRTUAL TABLE articleSubstringRows USING fts5vocab(articleSubstring, 'row');
                    """)
        }
        migrator.registerMigration("v14-search-merges-of-eight", foreignKeyChecks: .immediate) { db in
            // FTS5 merges an index's segments once 8 of a size have piled up, instead of 4: each
            // term is rewritten fewer times as the index grows, builds are quicker and searches no
            // slower (kept in the index's config).
            try db.execute(
                sql: """
                    INSERT INTO articleSearch(articleSearch, rank) VALUES ('automerge', 8);
                    INSERT INTO articleSubstring(articleSubstring, rank) VALUES ('automerge', 8);
                    """)
        }
        migrator.registerMigration("v15-chore-tombstones", foreignKeyChecks: .immediate) { db in
            // A task removed here whose deletion reached the server keeps its object aside while
            // `task undo` can bring it back: the task restored gets it again, unsent, and the next
            // sync creates it anew as the same object (href, UID, other clients' properties).
            try db.execute(
                sql: """
                    CREATE TABLE choreSyncTombstone (
                        formerTaskId INTEGER PRIMARY KEY NOT NULL,
                        href TEXT NOT NULL,
                        uid TEXT NOT NULL,
                        icalendar TEXT NOT NULL);
                    DROP TRIGGER choreSyncItem_taskRestored;
                    CREATE TRIGGER choreSyncItem_taskRestored AFTER INSERT ON task BEGIN
                        UPDATE choreSyncItem SET taskId = NEW.id, formerTaskId = NULL
                        WHERE taskId IS NULL AND formerTaskId = NEW.id;
                        INSERT INTO choreSyncItem (href, uid, taskId, etag, icalendar)
                        SELECT href, uid, NEW.id, NULL, icalendar FROM choreSyncTombstone AS gone
                        WHERE gone.formerTaskId = NEW.id AND NOT EXISTS (
                            SELECT 1 FROM choreSyncItem
                            WHERE taskId = NEW.id OR href = gone.href OR uid = gone.uid);
                        DELETE FROM choreSyncTombstone WHERE formerTaskId = NEW.id;
                    END;
                    """)
        }
        migrator.registerMigration("v16-article-media", foreignKeyChecks: .immediate) { db in
            // A podcast episode's or video's image, duration, episode and season, as one small
            // JSON value (NULL for the many articles that have none). Articles stored before
            // get theirs at the next refresh that reads their feed again.
            try db.execute(sql: "ALTER TABLE article ADD COLUMN media TEXT")
        }
        migrator.registerMigration("v17-feed-tags", foreignKeyChecks: .immediate) { db in
            // A feed's tags, OPML folders among them (`FeedTag`: a folder path is one tag; the
            // empty tag is an OPML list's top level, for a feed listed there beside folders).
            // `position` keeps the order places arrived in, so an export writes an import's
            // folders and feeds back in their order.
            try db.execute(
                sql: """
                    CREATE TABLE feedTag (
                        feedId INTEGER NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                        tag TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (feedId, tag)
                    ) WITHOUT ROWID;
                    CREATE INDEX feedTag_tag ON feedTag(tag, feedId);
                    """)
        }
        migrator.registerMigration("v18-saved-views", foreignKeyChecks: .immediate) { db in
            // Saved searches: a name and the filter the front end saved for it (the REPL keeps
            // its items options), listed in the order they were saved.
            try db.execute(
                sql: """
                    CREATE TABLE savedView (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) > 0),
                        definition TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v19-article-rules", foreignKeyChecks: .immediate) { db in
            // Rules (newsboat's killfile) and the articles they hid: a hidden article is deleted
            // and its status kept, marked, so that the feed listing it again does not bring it
            // back. The partial index finds a feed's hidden statuses in one step, and costs
            // nothing while there are none.
            try db.execute(
                sql: """
                    CREATE TABLE articleRule (
                        id INTEGER PRIMARY KEY,
                        field TEXT NOT NULL,
                        pattern TEXT NOT NULL CHECK (length(pattern) > 0),
                        isRegex INTEGER NOT NULL DEFAULT 0,
                        action TEXT NOT NULL,
                        caught INTEGER NOT NULL DEFAULT 0
                    );
                    ALTER TABLE articleStatus ADD COLUMN isHidden INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX articleStatus_hidden ON articleStatus(feedId, uniqueId) WHERE isHidden = 1;
                    """)
        }
        migrator.registerMigration("v20-settings", foreignKeyChecks: .immediate) { db in
            // The user's settings and aliases, and small facts a front end keeps between
            // processes (where the last refresh's articles start), by key.
            try db.execute(
                sql: "CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID")
        }
        migrator.registerMigration("v21-feed-pace", foreignKeyChecks: .immediate) { db in
            // How often a feed says it changes, in seconds (FeedSource.pace).
            try db.execute(sql: "ALTER TABLE feed ADD COLUMN pace REAL")
        }
        migrator.registerMigration("v22-feed-retention", foreignKeyChecks: .immediate) { db in
            // A feed's own retention (RetentionPolicy): NULL takes the default.
            try db.execute(sql: "ALTER TABLE feed ADD COLUMN keepItems INTEGER")
            try db.execute(sql: "ALTER TABLE feed ADD COLUMN keepDays INTEGER")
        }
        migrator.registerMigration("v23-chore-details", foreignKeyChecks: .immediate) { db in
            // A due time of day (minutes after midnight) and its zone, a priority (iCalendar's
            // 1, 5 or 9), a list, a parent chore, reminders (minutes before due, comma-separated),
            // the whole RRULE of a rule richer than count and unit; who recorded a completion.
            try db.execute(
                sql: """
                    ALTER TABLE task ADD COLUMN dueTime INTEGER CHECK (dueTime BETWEEN 0 AND 1439);
                    ALTER TABLE task ADD COLUMN timeZone TEXT;
                    ALTER TABLE task ADD COLUMN priority INTEGER CHECK (priority IN (1, 5, 9));
                    ALTER TABLE task ADD COLUMN list TEXT CHECK (length(trim(list)) > 0);
                    ALTER TABLE task ADD COLUMN parentId INTEGER REFERENCES task(id) ON DELETE SET NULL;
                    ALTER TABLE task ADD COLUMN reminders TEXT;
                    ALTER TABLE task ADD COLUMN rrule TEXT;
                    ALTER TABLE taskCompletion ADD COLUMN device TEXT;
                    CREATE INDEX task_parent ON task(parentId) WHERE parentId IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v24-chore-fields-version", foreignKeyChecks: .immediate) { db in
            // Which fields the text last synced was read with: 1 before due times, priorities and
            // reminders were read (the next sync takes them from it once), 2 since.
            try db.execute(
                sql: """
                    ALTER TABLE choreSyncItem ADD COLUMN fieldsVersion INTEGER NOT NULL DEFAULT 2;
                    UPDATE choreSyncItem SET fieldsVersion = 1;
                    """)
        }
        migrator.registerMigration("v25-chore-pending-parent", foreignKeyChecks: .immediate) { db in
            // The UID of the parent chore an object names (RELATED-TO) while no task here is it
            // yet: the task is made its step once the parent arrives.
            try db.execute(sql: "ALTER TABLE choreSyncItem ADD COLUMN pendingParent TEXT")
        }
        migrator.registerMigration("v26-chore-list-collections", foreignKeyChecks: .immediate) { db in
            // A list shared through a CalDAV collection of its own (as Reminders and tasks.org
            // keep one list per collection); every other list goes to `choreSyncAccount`'s. An
            // object belongs to the collection whose path its href lies under.
            try db.execute(
                sql: """
                    CREATE TABLE choreSyncListCollection (
                        list TEXT PRIMARY KEY NOT NULL COLLATE NOCASE CHECK (length(trim(list)) > 0),
                        url TEXT NOT NULL,
                        user TEXT NOT NULL,
                        syncToken TEXT,
                        lastSyncAt DOUBLE,
                        lastResult TEXT)
                    """)
        }
        migrator.registerMigration("v27-task-undo-steps", foreignKeyChecks: .immediate) { db in
            // The steps a removed chore had (their parent link goes with it): an undo of the
            // removal makes them its steps again.
            try db.execute(sql: "ALTER TABLE taskUndo ADD COLUMN steps TEXT")
        }
        migrator.registerMigration("v28-search-index-file", foreignKeyChecks: .immediate, migrate: moveSearchIndex)
        // Foreign keys off while `feed` is rebuilt: with them on, dropping the old table would
        // delete every article with it. Afterwards only `feed`'s own are checked: the rebuild
        // copies every id, so no reference to a feed can break, and a check of every foreign
        // key in the file takes seconds on a large one. (Every migration from here on runs so;
        // the ones above keep theirs.)
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("v29-feed-accounts", migrate: createFeedAccounts)
        return migrator
    }

    /// Where chores are shared (one CalDAV collection, its user, its last sync token; never a
    /// password) and, for each calendar object, its href, UID, ETag, the text last synced (the
    /// common base of a three-way merge) and the task it is, if any: a task deleted here keeps
    /// its object (`taskId` NULL) until the deletion has reached the server.
    private static func createChoreSync(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE choreSyncAccount (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    url TEXT NOT NULL,
                    user TEXT NOT NULL,
                    syncToken TEXT,
                    lastSyncAt DOUBLE,
                    lastResult TEXT);
                CREATE TABLE choreSyncItem (
                    href TEXT PRIMARY KEY NOT NULL,
                    uid TEXT NOT NULL UNIQUE,
                    taskId INTEGER UNIQUE REFERENCES task(id) ON DELETE SET NULL,
                    etag TEXT,
                    icalendar TEXT NOT NULL);
                """)
    }

    /// Article counts per feed, kept by triggers in the transaction that changes them: lists
    /// and `feed list` read their totals in one row per feed instead of counting index entries,
    /// which is slow on a large database. Unread and starred counts are counts of statuses: every
    /// unread or starred status has its article (see `ArticleRepository.count`).
    private static func createArticleCounts(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE articleCounts (
                    feedId INTEGER PRIMARY KEY REFERENCES feed(id) ON DELETE CASCADE,
                    total INTEGER NOT NULL DEFAULT 0,
                    unread INTEGER NOT NULL DEFAULT 0,
                    starred INTEGER NOT NULL DEFAULT 0);
                INSERT INTO articleCounts (feedId, total) SELECT feedId, count(*) FROM article GROUP BY feedId;
                INSERT INTO articleCounts (feedId, unread, starred)
                SELECT feedId, sum(isRead = 0), sum(isStarred = 1) FROM articleStatus GROUP BY feedId
                ON CONFLICT (feedId) DO UPDATE SET unread = excluded.unread, starred = excluded.starred;
                CREATE TRIGGER articleCounts_article_insert AFTER INSERT ON article BEGIN
                    INSERT INTO articleCounts (feedId, total) VALUES (new.feedId, 1)
                    ON CONFLICT (feedId) DO UPDATE SET total = total + 1;
                END;
                CREATE TRIGGER articleCounts_article_delete AFTER DELETE ON article BEGIN
                    UPDATE articleCounts SET total = total - 1 WHERE feedId = old.feedId;
                END;
                CREATE TRIGGER articleCounts_article_move AFTER UPDATE OF feedId ON article
                WHEN new.feedId IS NOT old.feedId BEGIN
                    UPDATE articleCounts SET total = total - 1 WHERE feedId = old.feedId;
                    INSERT INTO articleCounts (feedId, total) VALUES (new.feedId, 1)
                    ON CONFLICT (feedId) DO UPDATE SET total = total + 1;
                END;
                CREATE TRIGGER articleCounts_status_insert AFTER INSERT ON articleStatus
                WHEN new.isRead = 0 OR new.isStarred = 1 BEGIN
                    INSERT INTO articleCounts (feedId, unread, starred)
                    VALUES (new.feedId, new.isRead = 0, new.isStarred = 1)
                    ON CONFLICT (feedId) DO UPDATE
                    SET unread = unread + (new.isRead = 0), starred = starred + (new.isStarred = 1);
                END;
                CREATE TRIGGER articleCounts_status_delete AFTER DELETE ON articleStatus
                WHEN old.isRead = 0 OR old.isStarred = 1 BEGIN
                    UPDATE articleCounts SET unread = unread - (old.isRead = 0), starred = starred - (old.isStarred = 1)
                    WHERE feedId = old.feedId;
                END;
                CREATE TRIGGER articleCounts_status_update AFTER UPDATE OF isRead, isStarred, feedId ON articleStatus
                WHEN (old.isRead = 0) IS NOT (new.isRead = 0) OR (old.isStarred = 1) IS NOT (new.isStarred = 1)
                    OR old.feedId IS NOT new.feedId BEGIN
                    UPDATE articleCounts SET unread = unread - (old.isRead = 0), starred = starred - (old.isStarred = 1)
                    WHERE feedId = old.feedId;
                    INSERT INTO articleCounts (feedId, unread, starred)
                    VALUES (new.feedId, new.isRead = 0, new.isStarred = 1)
                    ON CONFLICT (feedId) DO UPDATE
                    SET unread = unread + (new.isRead = 0), starred = starred + (new.isStarred = 1);
                END;
                """)
    }

    private static func createFeedTables(_ db: Database) throws {
        try db.create(table: "feed") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("url", .text).notNull().unique()
            table.column("title", .text).notNull()
            table.column("homePageURL", .text)
            table.column("format", .text)
            table.column("etag", .text)
            table.column("lastModified", .text)
            table.column("contentHash", .text)
            table.column("lastResult", .text)
            table.column("lastRefreshedAt", .double)
        }
        try db.create(table: "article") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("feedId", .integer).notNull().references("feed", onDelete: .cascade)
            table.column("uniqueId", .text).notNull().check { length($0) > 0 }
            table.column("externalId", .text)
            table.column("title", .text)
            table.column("link", .text)
            table.column("externalLink", .text)
            table.column("published", .double)
            table.column("updated", .double)
            // published ?? updated ?? arrival: what lists sort by, never NULL.
            table.column("sortDate", .double).notNull()
            table.column("authors", .text)  // JSON array, NULL when empty
            table.column("summary", .text)
            table.column("contentHtml", .text)
            table.column("contentText", .text)
            table.column("categories", .text)  // JSON array, NULL when empty
            table.column("enclosures", .text)  // JSON array, NULL when empty
            table.uniqueKey(["feedId", "uniqueId"])
        }
        try db.create(index: "article_feed_sortDate", on: "article", columns: ["feedId", "sortDate"])
        try db.create(index: "article_sortDate", on: "article", columns: ["sortDate"])
        // Statuses are keyed by the article's stable identity, not its row, so they outlive the
        // article (retention) and a returning article keeps its read state.
        try db.create(table: "articleStatus") { table in
            table.column("feedId", .integer).notNull().references("feed", onDelete: .cascade)
            table.column("uniqueId", .text).notNull()
            table.column("isRead", .boolean).notNull().defaults(to: false)
            table.column("isStarred", .boolean).notNull().defaults(to: false)
            table.column("arrivedAt", .double).notNull()
            table.primaryKey(["feedId", "uniqueId"])
        }
        try db.create(index: "articleStatus_starred", on: "articleStatus", columns: ["isStarred"])
    }

    /// Full-text search over article titles and text: a contentless FTS5 table (the text lives
    /// once, in `article`).
    ///
    /// New articles are indexed in bulk by `ArticleRepository.updateSearchIndex()` rather than
    /// by an insert trigger: FTS5 pays per committed transaction, so indexing 100,000 articles in
    /// one transaction is several times cheaper than indexing them feed by feed inside each
    /// merge. `articleSearchState.indexedThrough` is the highest article id in the index (ids
    /// are never reused), and the triggers keep indexed rows in sync on update and delete; a
    /// contentless delete must repeat exactly the values that were indexed.
    private static func createArticleSearch(_ db: Database) throws {
        let indexed = "(SELECT indexedThrough FROM articleSearchState)"
        let oldValues = "old.id, coalesce(old.title, ''), coalesce(old.contentText, old.summary, '')"
        let newValues = "new.id, coalesce(new.title, ''), coalesce(new.contentText, new.summary, '')"
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE articleSearch USING fts5(
                    title, body, content='', detail=column, tokenize='unicode61 remove_diacritics 2');
                CREATE TABLE articleSearchState (
                    id INTEGER PRIMARY KEY CHECK (id = 1), indexedThrough INTEGER NOT NULL);
                INSERT INTO articleSearchState (id, indexedThrough) VALUES (1, 0);
                CREATE TRIGGER article_search_delete AFTER DELETE ON article WHEN old.id <= \(indexed) BEGIN
                    INSERT INTO articleSearch(articleSearch, rowid, title, body) VALUES ('delete', \(oldValues));
                END;
                CREATE TRIGGER article_search_update AFTER UPDATE OF title, contentText, summary ON article
                WHEN old.id <= \(indexed) BEGIN
                    INSERT INTO articleSearch(articleSearch, rowid, title, body) VALUES ('delete', \(oldValues));
                    INSERT INTO articleSearch(rowid, title, body) VALUES (\(newValues));
                END;
                """)
    }

    /// Substring search (see `ArticleSearch`): a contentless FTS5 trigram table beside the word
    /// index, with `detail=none` (the rowids of each trigram only, far smaller than with positions;
    /// searches confirm long words against the text instead), and its vocabulary, which finds the
    /// trigrams that begin with a one- or two-character word.
    ///
    /// Both indexes are kept by the same triggers and filled by the same bulk update, so the
    /// word index is emptied here and both are built together by the next
    /// `ArticleRepository.updateSearchIndex()`. The triggers replace those of `v1`.
    private static func createSubstringSearch(_ db: Database) throws {
        let indexed = "(SELECT indexedThrough FROM articleSearchState)"
        let suffix = "'\(ArticleSearch.indexedSuffix)'"
        func values(_ row: String) -> (words: String, substrings: String) {
            let title = "coalesce(\(row).title, '')"
            let body = "coalesce(\(row).contentText, \(row).summary, '')"
            return ("\(row).id, \(title), \(body)", "\(row).id, \(title) || \(suffix), \(body) || \(suffix)")
        }
        let old = values("old")
        let new = values("new")
        let deleteOld = """
            INSERT INTO articleSearch(articleSearch, rowid, title, body) VALUES ('delete', \(old.words));
            INSERT INTO articleSubstring(articleSubstring, rowid, title, body) VALUES ('delete', \(old.substrings));
            """
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE articleSubstring USING fts5(
                    title, body, content='', detail=none, columnsize=0, tokenize='trigram');
                CREATE VIRTUAL TABLE articleSubstringTerms USING fts5vocab(articleSubstring, 'instance');
                INSERT INTO articleSearch(articleSearch) VALUES ('delete-all');
                UPDATE articleSearchState SET indexedThrough = 0;
                DROP TRIGGER article_search_delete;
                DROP TRIGGER article_search_update;
                CREATE TRIGGER article_search_delete AFTER DELETE ON article WHEN old.id <= \(indexed) BEGIN
                    \(deleteOld)
                END;
                CREATE TRIGGER article_search_update AFTER UPDATE OF title, contentText, summary ON article
                WHEN old.id <= \(indexed) BEGIN
                    \(deleteOld)
                    INSERT INTO articleSearch(rowid, title, body) VALUES (\(new.words));
                    INSERT INTO articleSubstring(rowid, title, body) VALUES (\(new.substrings));
                END;
                """)
    }

    /// The search indexes move to a file of their own (see `SearchIndexFile`), built there
    /// from the articles by the next refresh or search. What changes an indexed article is
    /// queued here, in the transaction that changes it: the old text (what the index holds) and
    /// whether the article is to be indexed again. The token names this file's index: an index
    /// file holding another token was built for another file.
    private static func moveSearchIndex(_ db: Database) throws {
        let old = "old.id, coalesce(old.title, ''), coalesce(old.contentText, old.summary, '')"
        try db.execute(
            sql: """
                DROP TRIGGER IF EXISTS main.article_search_delete;
                DROP TRIGGER IF EXISTS main.article_search_update;
                DROP TABLE IF EXISTS main.articleSearchRows;
                DROP TABLE IF EXISTS main.articleSubstringRows;
                DROP TABLE IF EXISTS main.articleSubstringTerms;
                DROP TABLE IF EXISTS main.articleSubstring;
                DROP TABLE IF EXISTS main.articleSearch;
                DROP TABLE IF EXISTS main.articleSearchState;
                CREATE TABLE main.articleSearchQueue (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    articleId INTEGER NOT NULL,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    reindex INTEGER NOT NULL);
                CREATE TABLE main.articleSearchIndexFile (id INTEGER PRIMARY KEY CHECK (id = 1), token TEXT NOT NULL);
                INSERT INTO main.articleSearchIndexFile (id, token) VALUES (1, lower(hex(randomblob(16))));
                CREATE TRIGGER main.article_search_delete AFTER DELETE ON article BEGIN
                    INSERT INTO articleSearchQueue (articleId, title, body, reindex) VALUES (\(old), 0);
                END;
                CREATE TRIGGER main.article_search_update AFTER UPDATE OF title, contentText, summary ON article
                WHEN old.title IS NOT new.title OR old.contentText IS NOT new.contentText
                    OR old.summary IS NOT new.summary BEGIN
                    INSERT INTO articleSearchQueue (articleId, title, body, reindex) VALUES (\(old), 1);
                END;
                """)
    }

    private static func createTaskTables(_ db: Database) throws {
        try db.create(table: "task") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("name", .text).notNull().check(sql: "length(trim(name)) > 0")
            table.column("note", .text)
            table.column("dueDate", .double)
            table.column("frequencyCount", .integer).check { $0 >= 1 }
            table.column("frequencyUnit", .text).check { ["day", "week", "month", "year"].contains($0) }
            table.column("isDone", .boolean).notNull().defaults(to: false)
            table.column("articleId", .integer).references("article", onDelete: .setNull)
            table.column("createdAt", .double).notNull()
            table.column("modifiedAt", .double).notNull()
            table.check(sql: "(frequencyCount IS NULL) = (frequencyUnit IS NULL)")
        }
        try db.create(index: "task_open_due", on: "task", columns: ["isDone", "dueDate"])
        try db.create(table: "taskCompletion") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("taskId", .integer).notNull().indexed().references("task", onDelete: .cascade)
            table.column("dueDate", .double)
            table.column("completedAt", .double).notNull()
        }
    }

    private static func createCacheTables(_ db: Database) throws {
        try db.create(table: "configCache") { table in
            table.primaryKey("id", .integer).check { $0 == 1 }
            table.column("body", .blob).notNull()
            table.column("etag", .text)
            table.column("lastModified", .text)
            table.column("fetchedAt", .double).notNull()
        }
        try db.create(table: "httpCache") { table in
            table.primaryKey("url", .text)
            table.column("body", .blob).notNull()
            table.column("etag", .text)
            table.column("lastModified", .text)
            table.column("maxAge", .double)
            table.column("storedAt", .double).notNull()
        }
    }
}
