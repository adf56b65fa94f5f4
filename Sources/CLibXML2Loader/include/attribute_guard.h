// A scan run ahead of libxml2 over every document it is given (see attribute_guard.c).
#ifndef TIDINGS_ATTRIBUTE_GUARD_H
#define TIDINGS_ATTRIBUTE_GUARD_H

#include <stddef.h>

/// Where the scan is between two pieces of a document. Zeroed, it is at the start of one.
typedef struct {
    unsigned char prolog[200];  // the document's first bytes, until its encoding is known
    int prolog_length;
    int started;       // the encoding's form was read from the first four bytes
    int declared;      // the XML declaration was read (or there is none in the first bytes)
    int width;         // bytes per code unit: 1, 2 (UTF-16) or 4 (UTF-32)
    int big_endian;    // for widths 2 and 4
    int iso2022;       // the document declares an ISO-2022 encoding: escapes shift out of ASCII
    int shifted;       // ISO-2022: bytes are not ASCII until shifted back
    int escape;        // ISO-2022: bytes of an escape sequence read so far
    unsigned char unit[4];  // a code unit cut between two pieces
    int unit_bytes;
    int state;         // what the last character was inside (see attribute_guard.c)
    int matched;       // characters of a terminator or a prefix matched so far
    int kind;          // the quote of the value being skipped, or what `<!` starts
    int after_eq;      // an `=` came last in this tag, so a quote opens a value
    long attributes;   // `=` outside values in the start tag being read
} tidings_attribute_guard;

enum {
    TIDINGS_GUARD_OK = 0,
    /// A start tag holds more attributes than the limit.
    TIDINGS_GUARD_TOO_MANY_ATTRIBUTES = 1,
    /// The document declares UTF-7, which hides markup from any scan of its bytes (and which
    /// browsers refuse for that reason).
    TIDINGS_GUARD_UTF7 = 2,
    TIDINGS_GUARD_NO_MEMORY = 3,
};

/// Scans `length` bytes of a document, from where the last call left `guard`: one of the
/// `TIDINGS_GUARD_` results; after any but OK the scan stays stopped with it.
int tidings_attribute_guard_scan(tidings_attribute_guard *guard, const unsigned char *bytes, size_t length,
                                 long limit);

#endif
