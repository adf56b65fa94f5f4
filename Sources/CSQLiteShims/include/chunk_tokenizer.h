#ifndef TIDINGS_CHUNK_TOKENIZER_H
#define TIDINGS_CHUNK_TOKENIZER_H

// Declared, not included (see substring_tokenizer.h).
typedef struct sqlite3 sqlite3;

/// The most code points of one chunk term; a longer run is cut into pieces this long, each
/// starting `TIDINGS_CHUNK_STEP` code points after the one before, so that every run of
/// `TIDINGS_CHUNK_MAX - TIDINGS_CHUNK_STEP + 1` code points lies whole in one piece. A piece
/// after the first starts with U+E000 (see below).
#define TIDINGS_CHUNK_MAX 128
#define TIDINGS_CHUNK_STEP 64

/// Registers the FTS5 tokenizer `tidings_chunks` on `db` (with `tidings_trigram`, by
/// `tidings_register_substring_tokenizer`). Returns an SQLite result code.
///
/// It makes one term of each run of characters between white space (Unicode's White_Space),
/// case folded as FTS5's `trigram` tokenizer folds it, once per document: a search word, which
/// never holds white space, lies whole in one of them. A run longer than `TIDINGS_CHUNK_MAX`
/// code points is cut into overlapping pieces; each piece after the first starts with U+E000,
/// which no text of a feed holds in practice, so that the word index of the vocabulary sees no
/// word start where a piece starts in the middle of a word.
///
/// In a document (an insert, or the delete that repeats it) it also remembers each distinct
/// term, per connection, until `tidings_flush_chunks` adds them to the vocabulary.
int tidings_register_chunk_tokenizer(sqlite3 *db);

/// Adds the terms `tidings_chunks` made on `db` since the last flush to the vocabulary in
/// `schema` (NULL: the first schema that has it): `chunk(id, text)`, and, for each term new there, the vocabulary's word index
/// `chunkWords` and trigram index `chunkTrigrams` (its text followed by two spaces). Must run in
/// the transaction that indexed the documents, so that the index never holds a term its
/// vocabulary lacks. Returns an SQLite result code; the remembered terms are forgotten either way.
int tidings_flush_chunks(sqlite3 *db, const char *schema);

#endif
