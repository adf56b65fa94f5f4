// Helpers shared by the two tokenizers (not part of the module's interface).
#ifndef TIDINGS_TEXT_FOLDING_H
#define TIDINGS_TEXT_FOLDING_H

#include <sqlite3.h>

#include <stdint.h>

/// Case folding as FTS5's `trigram` tokenizer folds, asked of it once per character (and
/// remembered for the Basic Multilingual Plane).
typedef struct {
    fts5_tokenizer trigram;
    Fts5Tokenizer *inner;
    uint32_t *folds;  // folded code point + 1 for each BMP code point asked so far, 0 = not yet
} Folder;

/// Opens `folder` on FTS5's `trigram` tokenizer of `api`; an SQLite result code.
int tidings_folder_open(Folder *folder, fts5_api *api);
void tidings_folder_close(Folder *folder);
/// `c` case folded as `trigram` folds it.
uint32_t tidings_fold(Folder *folder, uint32_t c);

/// ASCII white space: what the trigram tokenizer treats as a word's end.
static inline int tidings_is_ascii_space(uint32_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/// Unicode's White_Space property (what Swift's `Character.isWhitespace` tests): a search word
/// never holds one.
static inline int tidings_is_white_space(uint32_t c) {
    if (c < 0x80) return tidings_is_ascii_space(c);
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

/// UTF-8 of `c` into `out` (room for 4 bytes); returns its length.
int tidings_encode(uint32_t c, char *out);

/// The code point at `s` (strict UTF-8: anything ill-formed is U+FFFD, one byte consumed), and
/// its length in `used`.
uint32_t tidings_decode_one(const unsigned char *s, int length, int *used);

/// FTS5's API on `db`, or NULL.
fts5_api *tidings_fts5_api(sqlite3 *db);

#endif
