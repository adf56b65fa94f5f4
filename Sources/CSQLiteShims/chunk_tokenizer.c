// See include/chunk_tokenizer.h.
#include "chunk_tokenizer.h"
#include "text_folding.h"

#include <sqlite3.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// One distinct term remembered since the last flush: its bytes in the arena.
typedef struct {
    uint64_t hash;      // 0 = an empty slot
    uint32_t offset;
    uint32_t length;
    uint32_t document;  // the last document that emitted it
} Entry;

// The terms made on one connection since the last flush, an open-addressing set over an arena.
typedef struct {
    fts5_api *api;
    char *arena;
    size_t used, room;
    Entry *entries;
    uint32_t capacity;  // a power of two, or 0
    uint32_t count;
    uint32_t document;  // the document being tokenized
} Collector;

typedef struct {
    Folder folder;
    Collector *collector;
    uint32_t *points;   // the text's folded code points
    int *starts;        // the byte offset each starts at
    size_t room;
} ChunkTokenizer;

static uint64_t hash_bytes(const char *bytes, int length) {
    uint64_t hash = 0x9E3779B97F4A7C15ULL ^ (uint64_t)length;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        hash = (hash ^ word) * 0xff51afd7ed558ccdULL;
        hash ^= hash >> 32;
    }
    if (i < length) {
        uint64_t word = 0;
        memcpy(&word, bytes + i, (size_t)(length - i));
        hash = (hash ^ word) * 0xc4ceb9fe1a85ec53ULL;
        hash ^= hash >> 29;
    }
    return hash ? hash : 1;
}

static int collector_grow(Collector *c) {
    uint32_t capacity = c->capacity ? c->capacity * 2 : 4096;
    if (capacity < c->capacity) return 0;
    Entry *entries = calloc(capacity, sizeof *entries);
    if (!entries) return 0;
    for (uint32_t i = 0; i < c->capacity; i++) {
        Entry e = c->entries[i];
        if (!e.hash) continue;
        uint32_t j = (uint32_t)e.hash & (capacity - 1);
        while (entries[j].hash) j = (j + 1) & (capacity - 1);
        entries[j] = e;
    }
    free(c->entries);
    c->entries = entries;
    c->capacity = capacity;
    return 1;
}

// Whether the current document already emitted `term`; remembers it either way. -1 when
// memory runs out.
static int emitted_before(Collector *c, const char *term, int length) {
    if ((c->count + 1) * 2 > c->capacity && !collector_grow(c)) return -1;
    uint64_t hash = hash_bytes(term, length);
    uint32_t mask = c->capacity - 1;
    uint32_t i = (uint32_t)hash & mask;
    for (;; i = (i + 1) & mask) {
        Entry *e = &c->entries[i];
        if (!e->hash) break;
        if (e->hash == hash && e->length == (uint32_t)length && memcmp(c->arena + e->offset, term, (size_t)length) == 0) {
            if (e->document == c->document) return 1;
            e->document = c->document;
            return 0;
        }
    }
    if (c->used + (size_t)length > c->room) {
        size_t room = c->room ? c->room * 2 : 65536;
        while (room < c->used + (size_t)length) room *= 2;
        if (room > UINT32_MAX) return -1;
        char *arena = realloc(c->arena, room);
        if (!arena) return -1;
        c->arena = arena;
        c->room = room;
    }
    memcpy(c->arena + c->used, term, (size_t)length);
    c->entries[i] = (Entry){hash, (uint32_t)c->used, (uint32_t)length, c->document};
    c->used += (size_t)length;
    c->count++;
    return 0;
}

static void collector_clear(Collector *c) {
    if (c->entries) memset(c->entries, 0, (size_t)c->capacity * sizeof *c->entries);
    c->count = 0;
    c->used = 0;
    // A set that one large batch grew is let go, not kept for the connection's life.
    if (c->capacity > (1u << 20)) {
        free(c->entries);
        c->entries = NULL;
        c->capacity = 0;
    }
    if (c->room > (64u << 20)) {
        free(c->arena);
        c->arena = NULL;
        c->room = 0;
    }
}

static void collector_destroy(void *pointer) {
    Collector *c = pointer;
    if (!c) return;
    free(c->entries);
    free(c->arena);
    free(c);
}

static int reserve_points(ChunkTokenizer *t, int length) {
    size_t needed = (size_t)length + 1;
    if (needed <= t->room) return 1;
    uint32_t *points = malloc(needed * sizeof *points);
    int *starts = malloc((needed + 1) * sizeof *starts);
    if (!points || !starts) {
        free(points);
        free(starts);
        return 0;
    }
    free(t->points);
    free(t->starts);
    t->points = points;
    t->starts = starts;
    t->room = needed;
    return 1;
}

typedef int (*TokenCallback)(void *, int, const char *, int, int, int);

// Emits the code points [first, first + count) as one term (after U+E000 when `continued`).
static int emit(ChunkTokenizer *t, int collect, void *context, TokenCallback token, size_t first, size_t count,
                int continued) {
    char term[TIDINGS_CHUNK_MAX * 4 + 4];
    int n = 0;
    if (continued) n += tidings_encode(0xE000, term);
    for (size_t i = first; i < first + count; i++) n += tidings_encode(t->points[i], term + n);
    if (collect) {
        int seen = emitted_before(t->collector, term, n);
        if (seen < 0) return SQLITE_NOMEM;
        if (seen) return SQLITE_OK;
    }
    return token(context, 0, term, n, t->starts[first], t->starts[first + count]);
}

// The long way, for a run of more than TIDINGS_CHUNK_MAX code points starting at byte `at`:
// its folded code points, cut into overlapping pieces. Returns the byte after the run.
static int tokenize_long_run(ChunkTokenizer *t, int collect, void *context, TokenCallback token,
                             const unsigned char *bytes, int length, int at, int *rc) {
    size_t count = 0;
    while (at < length) {
        int used = 1;
        uint32_t c = bytes[at] < 0x80 ? bytes[at] : tidings_decode_one(bytes + at, length - at, &used);
        if (c == 0 || tidings_is_white_space(c)) break;
        t->starts[count] = at;
        t->points[count++] = tidings_fold(&t->folder, c);
        at += used;
    }
    t->starts[count] = at;
    for (size_t start = 0;; start += TIDINGS_CHUNK_STEP) {
        size_t n = count - start < TIDINGS_CHUNK_MAX ? count - start : TIDINGS_CHUNK_MAX;
        *rc = emit(t, collect, context, token, start, n, start > 0);
        if (*rc != SQLITE_OK || start + TIDINGS_CHUNK_MAX >= count) break;
    }
    return at;
}

static int chunk_tokenize(Fts5Tokenizer *tokenizer, void *context, int flags, const char *text, int length,
                          TokenCallback token) {
    ChunkTokenizer *t = (ChunkTokenizer *)tokenizer;
    if (length <= 0) return SQLITE_OK;
    if (!reserve_points(t, length)) return SQLITE_NOMEM;
    int collect = (flags & FTS5_TOKENIZE_DOCUMENT) != 0;
    if (collect && ++t->collector->document == 0) t->collector->document = 1;
    // Up to the first NUL, as the trigram tokenizer reads a text. Each run is folded into `term`
    // as it is read; a run longer than TIDINGS_CHUNK_MAX code points is read again the long way.
    const unsigned char *bytes = (const unsigned char *)text;
    char term[TIDINGS_CHUNK_MAX * 4 + 4];
    int at = 0;
    while (at < length) {
        unsigned char b = bytes[at];
        if (b == 0) break;
        if (b < 0x80) {
            if (tidings_is_ascii_space(b)) {
                at++;
                continue;
            }
        } else {
            int used = 1;
            uint32_t c = tidings_decode_one(bytes + at, length - at, &used);
            if (tidings_is_white_space(c)) {
                at += used;
                continue;
            }
        }
        int start = at, n = 0, points = 0, ended = 0;
        while (at < length && points < TIDINGS_CHUNK_MAX + 1) {
            b = bytes[at];
            if (b < 0x80) {
                if (b == 0 || tidings_is_ascii_space(b)) {
                    ended = 1;
                    break;
                }
                if (points < TIDINGS_CHUNK_MAX) term[n++] = (char)((b >= 'A' && b <= 'Z') ? b + 32 : b);
                at++;
            } else {
                int used = 1;
                uint32_t c = tidings_decode_one(bytes + at, length - at, &used);
                if (tidings_is_white_space(c)) {
                    ended = 1;
                    break;
                }
                if (points < TIDINGS_CHUNK_MAX) n += tidings_encode(tidings_fold(&t->folder, c), term + n);
                at += used;
            }
            points++;
        }
        if (at >= length) ended = 1;
        int rc = SQLITE_OK;
        if (points <= TIDINGS_CHUNK_MAX && ended) {
            if (collect) {
                int seen = emitted_before(t->collector, term, n);
                if (seen < 0) return SQLITE_NOMEM;
                if (seen) continue;
            }
            rc = token(context, 0, term, n, start, at);
        } else {
            at = tokenize_long_run(t, collect, context, token, bytes, length, start, &rc);
        }
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

static int chunk_create(void *user_data, const char **arguments, int count, Fts5Tokenizer **out) {
    (void)arguments;
    Collector *collector = user_data;
    if (count != 0) return SQLITE_ERROR;
    ChunkTokenizer *t = calloc(1, sizeof *t);
    if (!t) return SQLITE_NOMEM;
    int rc = tidings_folder_open(&t->folder, collector->api);
    if (rc != SQLITE_OK) {
        tidings_folder_close(&t->folder);
        free(t);
        return rc;
    }
    t->collector = collector;
    *out = (Fts5Tokenizer *)t;
    return SQLITE_OK;
}

static void chunk_delete(Fts5Tokenizer *tokenizer) {
    ChunkTokenizer *t = (ChunkTokenizer *)tokenizer;
    if (!t) return;
    tidings_folder_close(&t->folder);
    free(t->points);
    free(t->starts);
    free(t);
}

int tidings_register_chunk_tokenizer(sqlite3 *db) {
    fts5_api *api = tidings_fts5_api(db);
    if (!api) return SQLITE_ERROR;
    Collector *collector = calloc(1, sizeof *collector);
    if (!collector) return SQLITE_NOMEM;
    collector->api = api;
    fts5_tokenizer tokenizer = {chunk_create, chunk_delete, chunk_tokenize};
    // SQLite calls collector_destroy when the connection closes, or at once if this fails.
    return api->xCreateTokenizer(api, "tidings_chunks", collector, &tokenizer, collector_destroy);
}

int tidings_flush_chunks(sqlite3 *db, const char *schema) {
    fts5_api *api = tidings_fts5_api(db);
    if (!api) return SQLITE_ERROR;
    void *user_data = NULL;
    fts5_tokenizer tokenizer;
    if (api->xFindTokenizer(api, "tidings_chunks", &user_data, &tokenizer) != SQLITE_OK) return SQLITE_ERROR;
    Collector *c = user_data;
    if (!c->count) return SQLITE_OK;
    // Unqualified names find the first schema that has the tables when `schema` is NULL.
    char *prefix = schema ? sqlite3_mprintf("\"%w\".", schema) : sqlite3_mprintf("%s", "");
    if (!prefix) {
        collector_clear(c);
        return SQLITE_NOMEM;
    }
    char *sql[3] = {
        sqlite3_mprintf("INSERT INTO %schunk(text) VALUES (?1) ON CONFLICT(text) DO NOTHING", prefix),
        sqlite3_mprintf("INSERT INTO %schunkWords(rowid, text) VALUES (?1, ?2)", prefix),
        sqlite3_mprintf("INSERT INTO %schunkTrigrams(rowid, text) VALUES (?1, ?2 || '  ')", prefix),
    };
    sqlite3_free(prefix);
    sqlite3_stmt *statements[3] = {NULL, NULL, NULL};
    int rc = SQLITE_OK;
    for (int i = 0; i < 3 && rc == SQLITE_OK; i++) {
        rc = sql[i] ? sqlite3_prepare_v2(db, sql[i], -1, &statements[i], NULL) : SQLITE_NOMEM;
    }
    for (uint32_t i = 0; i < c->capacity && rc == SQLITE_OK; i++) {
        Entry *e = &c->entries[i];
        if (!e->hash) continue;
        const char *text = c->arena + e->offset;
        sqlite3_bind_text(statements[0], 1, text, (int)e->length, SQLITE_STATIC);
        rc = sqlite3_step(statements[0]);
        sqlite3_reset(statements[0]);
        if (rc != SQLITE_DONE) break;
        rc = SQLITE_OK;
        if (sqlite3_changes(db) == 0) continue;
        sqlite3_int64 id = sqlite3_last_insert_rowid(db);
        for (int s = 1; s < 3 && rc == SQLITE_OK; s++) {
            sqlite3_bind_int64(statements[s], 1, id);
            sqlite3_bind_text(statements[s], 2, text, (int)e->length, SQLITE_STATIC);
            rc = sqlite3_step(statements[s]);
            sqlite3_reset(statements[s]);
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        }
    }
    for (int i = 0; i < 3; i++) {
        sqlite3_finalize(statements[i]);
        sqlite3_free(sql[i]);
    }
    collector_clear(c);
    return rc;
}
