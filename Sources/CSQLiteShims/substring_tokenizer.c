// See include/substring_tokenizer.h.
#include "substring_tokenizer.h"
#include "chunk_tokenizer.h"
#include "text_folding.h"

#include <sqlite3.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// One distinct trigram of the document being tokenized: three code points packed in 63 bits.
typedef struct {
    uint64_t key;
    uint32_t generation;
} Slot;

typedef struct {
    Folder folder;           // FTS5's own trigram tokenizer, for queries and for case folding
    uint32_t *points;        // the document's folded code points
    size_t points_capacity;
    Slot *slots;             // an open-addressing set, cleared by bumping the generation
    uint32_t capacity;       // a power of two
    uint32_t generation;
} Wrapper;

static uint64_t hash64(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return key;
}

// Makes room for a document of `length` bytes; returns 0 when memory runs out.
static int reserve(Wrapper *w, int length) {
    size_t points = (size_t)length + 1;
    if (points > w->points_capacity) {
        uint32_t *grown = malloc(points * sizeof *grown);
        if (!grown) return 0;
        free(w->points);
        w->points = grown;
        w->points_capacity = points;
    }
    uint64_t needed = 64;
    while (needed < (uint64_t)length * 2 + 64) needed <<= 1;
    if (needed > 0x40000000ULL) needed = 0x40000000ULL;
    if (needed > w->capacity) {
        Slot *slots = calloc((size_t)needed, sizeof *slots);
        if (!slots) return 0;
        free(w->slots);
        w->slots = slots;
        w->capacity = (uint32_t)needed;
        w->generation = 0;
    }
    if (++w->generation == 0) {
        memset(w->slots, 0, (size_t)w->capacity * sizeof *w->slots);
        w->generation = 1;
    }
    return 1;
}

// Whether the set already held `key` (it holds it afterwards). The set never fills: it has
// twice as many slots as the document has bytes, and at most one trigram starts at each byte.
static int seen_before(Wrapper *w, uint64_t key) {
    uint32_t mask = w->capacity - 1;
    for (uint32_t i = (uint32_t)hash64(key) & mask;; i = (i + 1) & mask) {
        Slot *slot = &w->slots[i];
        if (slot->generation != w->generation) {
            slot->generation = w->generation;
            slot->key = key;
            return 0;
        }
        if (slot->key == key) return 1;
    }
}

static int tokenize_document(Wrapper *w, void *context, const char *text, int length,
                             int (*token)(void *, int, const char *, int, int, int)) {
    if (length <= 0) return SQLITE_OK;
    if (!reserve(w, length)) return SQLITE_NOMEM;
    // Folded code points up to the first NUL (where FTS5's trigram tokenizer stops too), with
    // the byte offset each starts at in a parallel pass below.
    const unsigned char *bytes = (const unsigned char *)text;
    size_t count = 0;
    for (int at = 0; at < length;) {
        int used = 1;
        uint32_t c = bytes[at] < 0x80 ? bytes[at] : tidings_decode_one(bytes + at, length - at, &used);
        if (c == 0) break;
        w->points[count++] = tidings_fold(&w->folder, c);
        at += used;
    }
    int offset = 0;
    for (size_t i = 0; i + 2 < count; i++) {
        uint32_t a = w->points[i], b = w->points[i + 1], c = w->points[i + 2];
        char out[12];
        int first = tidings_encode(a, out);
        offset += first;
        if (tidings_is_ascii_space(a)) continue;
        if (tidings_is_ascii_space(b)) b = ' ', c = ' ';
        else if (tidings_is_ascii_space(c)) c = ' ';
        uint64_t key = ((uint64_t)a << 42) | ((uint64_t)b << 21) | c;
        if (seen_before(w, key)) continue;
        int n = first;
        n += tidings_encode(b, out + n);
        n += tidings_encode(c, out + n);
        int rc = token(context, 0, out, n, offset - first, offset - first + n);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

static int wrapper_tokenize(Fts5Tokenizer *tokenizer, void *context, int flags, const char *text, int length,
                            int (*token)(void *, int, const char *, int, int, int)) {
    Wrapper *w = (Wrapper *)tokenizer;
    if (flags & FTS5_TOKENIZE_DOCUMENT) return tokenize_document(w, context, text, length, token);
    return w->folder.trigram.xTokenize(w->folder.inner, context, flags, text, length, token);
}

static int wrapper_create(void *api_pointer, const char **arguments, int count, Fts5Tokenizer **out) {
    fts5_api *api = api_pointer;
    (void)arguments;
    if (count != 0) return SQLITE_ERROR;  // trigram's options would change what is folded
    Wrapper *w = calloc(1, sizeof *w);
    if (!w) return SQLITE_NOMEM;
    int rc = tidings_folder_open(&w->folder, api);
    if (rc != SQLITE_OK) {
        free(w);
        return rc;
    }
    *out = (Fts5Tokenizer *)w;
    return SQLITE_OK;
}

static void wrapper_delete(Fts5Tokenizer *tokenizer) {
    Wrapper *w = (Wrapper *)tokenizer;
    if (!w) return;
    tidings_folder_close(&w->folder);
    free(w->points);
    free(w->slots);
    free(w);
}

fts5_api *tidings_fts5_api(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) return NULL;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    if (sqlite3_finalize(statement) != SQLITE_OK) return NULL;
    return api;
}

int tidings_register_substring_tokenizer(sqlite3 *db) {
    fts5_api *api = tidings_fts5_api(db);
    if (!api) return SQLITE_ERROR;
    fts5_tokenizer tokenizer = {wrapper_create, wrapper_delete, wrapper_tokenize};
    int rc = api->xCreateTokenizer(api, "tidings_trigram", api, &tokenizer, NULL);
    if (rc == SQLITE_OK) rc = tidings_register_chunk_tokenizer(db);
    return rc;
}

static int count_term(void *context, int flags, const char *token, int length, int start, int end) {
    (void)token, (void)length, (void)start, (void)end;
    if (!(flags & FTS5_TOKEN_COLOCATED)) ++*(int *)context;
    return SQLITE_OK;
}

int tidings_word_index_terms(sqlite3 *db, const char *text, int length) {
    fts5_api *api = tidings_fts5_api(db);
    if (!api) return -1;
    void *user_data = NULL;
    fts5_tokenizer unicode61;
    if (api->xFindTokenizer(api, "unicode61", &user_data, &unicode61) != SQLITE_OK) return -1;
    const char *arguments[] = {"remove_diacritics", "2"};
    Fts5Tokenizer *instance = NULL;
    if (unicode61.xCreate(user_data, arguments, 2, &instance) != SQLITE_OK) return -1;
    int count = 0;
    int rc = unicode61.xTokenize(instance, &count, FTS5_TOKENIZE_QUERY, text, length, count_term);
    unicode61.xDelete(instance);
    return rc == SQLITE_OK ? count : -1;
}
