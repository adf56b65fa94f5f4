#ifndef TIDINGS_SUBSTRING_TOKENIZER_H
#define TIDINGS_SUBSTRING_TOKENIZER_H

// Declared, not included: Storage sees SQLite through GRDB's module, and a second copy of
// sqlite3.h here would make its names ambiguous.
typedef struct sqlite3 sqlite3;

/// Registers the FTS5 tokenizer `tidings_trigram` on `db` (every connection that writes or
/// queries the substring index needs it). Returns an SQLite result code.
///
/// It emits what FTS5's own `trigram` tokenizer (case folded) emits for a query, and for a
/// document (an insert, or the delete that must repeat it) the same trigrams less what a search
/// for words without white space can never ask for:
/// - each distinct trigram once (the index has `detail=none`: it stores which documents hold a
///   term, not how often or where);
/// - no trigram that starts with ASCII white space;
/// - a trigram whose second character is ASCII white space becomes its first character and two
///   spaces, and one whose third is becomes its first two and a space: a one- or two-character
///   word is found through the terms that start with it, whatever follows.
/// Characters are case folded exactly as `trigram` folds them (it is asked, once per character).
int tidings_register_substring_tokenizer(sqlite3 *db);

/// How many terms FTS5's `unicode61` tokenizer, with `remove_diacritics 2` (the word index's),
/// makes of `length` bytes of `text` in a query; -1 when it cannot be asked. A search word
/// goes to the word index only when this is 1: FTS5 refuses a phrase of several terms on an
/// index without positions, and which characters cut a word is decided by SQLite's own Unicode
/// tables, not by the program's.
int tidings_word_index_terms(sqlite3 *db, const char *text, int length);

#endif
