// See include/substring_tokenizer.h.
#include "substring_tokenizer.h"

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
    fts5_tokenizer trigram;  // FTS5's own, for queries and for case folding
    Fts5Tokenizer *inner;
    uint32_t *folds;         // folded code point + 1 for each BMP code point asked so far, 0 = not yet
    uint32_t *points;        // the document's folded code points
    size_t points_capacity;
    Slot *slots;             // an open-addressing set, cleared by bumping the generation
    uint32_t capacity;       // a power of two
    uint32_t generation;
} Wrapper;

static int is_space(uint32_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// The first code point of the first token `trigram` emits; captured by fold().
typedef struct {
    uint32_t point;
    int seen;
} Capture;

static uint32_t decode_one(const unsigned char *bytes, int length, int *used);

static int capture_token(void *context, int flags, const char *token, int length, int start, int end) {
    (void)flags, (void)start, (void)end;
    Capture *capture = context;
    if (!capture->seen && length > 0) {
        int used = 0;
        capture->point = decode_one((const unsigned char *)token, length, &used);
        capture->seen = 1;
    }
    return SQLITE_OK;
}

static int encode(uint32_t c, char *out) {
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

// Strict UTF-8: anything ill-formed (and the noncharacters U+FFFE and U+FFFF, which SQLite's
// own reader also replaces) is one U+FFFD per byte consumed, so every input is tokenized the
// same way every time.
static uint32_t decode_one(const unsigned char *s, int length, int *used) {
    unsigned char b = s[0];
    *used = 1;
    if (b < 0x80) return b;
    int need;
    uint32_t c, min;
    if (b >= 0xC2 && b <= 0xDF) need = 1, c = b & 0x1F, min = 0x80;
    else if (b >= 0xE0 && b <= 0xEF) need = 2, c = b & 0x0F, min = 0x800;
    else if (b >= 0xF0 && b <= 0xF4) need = 3, c = b & 0x07, min = 0x10000;
    else return 0xFFFD;
    if (need >= length) return 0xFFFD;
    for (int i = 1; i <= need; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0xFFFD;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFE || c == 0xFFFF) return 0xFFFD;
    *used = need + 1;
    return c;
}

// `c` case folded as FTS5's trigram tokenizer folds it, asked of that tokenizer (and remembered
// for the Basic Multilingual Plane).
static uint32_t fold(Wrapper *w, uint32_t c) {
    if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    if (c < 0x10000 && w->folds && w->folds[c]) return w->folds[c] - 1;
    char text[8];
    int n = encode(c, text);
    text[n] = 'x', text[n + 1] = 'x';
    Capture capture = {c, 0};
    w->trigram.xTokenize(w->inner, &capture, FTS5_TOKENIZE_DOCUMENT, text, n + 2, capture_token);
    uint32_t folded = capture.seen ? capture.point : c;
    if (c < 0x10000) {
        if (!w->folds) w->folds = calloc(0x10000, sizeof *w->folds);
        if (w->folds) w->folds[c] = folded + 1;
    }
    return folded;
}

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
        uint32_t c = bytes[at] < 0x80 ? bytes[at] : decode_one(bytes + at, length - at, &used);
        if (c == 0) break;
        w->points[count++] = fold(w, c);
        at += used;
    }
    int offset = 0;
    for (size_t i = 0; i + 2 < count; i++) {
        uint32_t a = w->points[i], b = w->points[i + 1], c = w->points[i + 2];
        char out[12];
        int first = encode(a, out);
        offset += first;
        if (is_space(a)) continue;
        if (is_space(b)) b = ' ', c = ' ';
        else if (is_space(c)) c = ' ';
        uint64_t key = ((uint64_t)a << 42) | ((uint64_t)b << 21) | c;
        if (seen_before(w, key)) continue;
        int n = first;
        n += encode(b, out + n);
        n += encode(c, out + n);
        int rc = token(context, 0, out, n, offset - first, offset - first + n);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

static int wrapper_tokenize(Fts5Tokenizer *tokenizer, void *context, int flags, const char *text, int length,
                            int (*token)(void *, int, const char *, int, int, int)) {
    Wrapper *w = (Wrapper *)tokenizer;
    if (flags & FTS5_TOKENIZE_DOCUMENT) return tokenize_document(w, context, text, length, token);
    return w->trigram.xTokenize(w->inner, context, flags, text, length, token);
}

static int wrapper_create(void *api_pointer, const char **arguments, int count, Fts5Tokenizer **out) {
    fts5_api *api = api_pointer;
    void *user_data = NULL;
    if (count != 0) return SQLITE_ERROR;  // trigram's options would change what is folded
    Wrapper *w = calloc(1, sizeof *w);
    if (!w) return SQLITE_NOMEM;
    int rc = api->xFindTokenizer(api, "trigram", &user_data, &w->trigram);
    if (rc == SQLITE_OK) rc = w->trigram.xCreate(user_data, arguments, count, &w->inner);
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
    w->trigram.xDelete(w->inner);
    free(w->folds);
    free(w->points);
    free(w->slots);
    free(w);
}

// FTS5's API on `db`, or NULL.
static fts5_api *fts5_api_of(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) return NULL;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    if (sqlite3_finalize(statement) != SQLITE_OK) return NULL;
    return api;
}

int tidings_register_substring_tokenizer(sqlite3 *db) {
    fts5_api *api = fts5_api_of(db);
    if (!api) return SQLITE_ERROR;
    fts5_tokenizer tokenizer = {wrapper_create, wrapper_delete, wrapper_tokenize};
    return api->xCreateTokenizer(api, "tidings_trigram", api, &tokenizer, NULL);
}

static int count_term(void *context, int flags, const char *token, int length, int start, int end) {
    (void)token, (void)length, (void)start, (void)end;
    if (!(flags & FTS5_TOKEN_COLOCATED)) ++*(int *)context;
    return SQLITE_OK;
}

int tidings_word_index_terms(sqlite3 *db, const char *text, int length) {
    fts5_api *api = fts5_api_of(db);
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
