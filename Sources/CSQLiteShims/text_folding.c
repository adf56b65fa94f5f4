// See text_folding.h.
#include "text_folding.h"

#include <stdlib.h>

// The first code point of the first token `trigram` emits; captured by fold().
typedef struct {
    uint32_t point;
    int seen;
} Capture;

static int capture_token(void *context, int flags, const char *token, int length, int start, int end) {
    (void)flags, (void)start, (void)end;
    Capture *capture = context;
    if (!capture->seen && length > 0) {
        int used = 0;
        capture->point = tidings_decode_one((const unsigned char *)token, length, &used);
        capture->seen = 1;
    }
    return SQLITE_OK;
}

int tidings_encode(uint32_t c, char *out) {
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
uint32_t tidings_decode_one(const unsigned char *s, int length, int *used) {
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
uint32_t tidings_fold(Folder *w, uint32_t c) {
    if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    if (c < 0x10000 && w->folds && w->folds[c]) return w->folds[c] - 1;
    char text[8];
    int n = tidings_encode(c, text);
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


int tidings_folder_open(Folder *folder, fts5_api *api) {
    void *user_data = NULL;
    folder->folds = NULL;
    folder->inner = NULL;
    int rc = api->xFindTokenizer(api, "trigram", &user_data, &folder->trigram);
    if (rc == SQLITE_OK) rc = folder->trigram.xCreate(user_data, NULL, 0, &folder->inner);
    return rc;
}

void tidings_folder_close(Folder *folder) {
    if (folder->inner) folder->trigram.xDelete(folder->inner);
    free(folder->folds);
    folder->inner = NULL;
    folder->folds = NULL;
}
