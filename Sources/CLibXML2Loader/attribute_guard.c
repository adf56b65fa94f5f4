// libxml2 2.9 checks each attribute of a start tag against every earlier one of that tag
// (`xmlParseStartTag2`): a tag of n attributes costs n²/2 comparisons, and 1.15 million
// attributes fit in 9 MB (ten minutes of CPU). libxml2 sees a tag whole before it calls back,
// so its readers cannot stop it there: this scan, run over each piece before libxml2 gets it,
// counts the attributes of every start tag and stops the document at the first one with more
// than the limit.
//
// It reads markup as libxml2 does where that decides what is a tag: text up to `<`; a start tag
// is `<` and a name's first byte; comments, CDATA sections and processing instructions end at
// their own terminators; an attribute value opens with a quote after `=` and ends at that quote
// or, as libxml2 gives up on a value there, at a `<`, which starts markup again. An `=` outside
// a value counts as an attribute, so the count is never below libxml2's; it can only be above it
// in a document that is not well formed. Every piece of a document goes through one guard, in
// order: the state carries over between pieces.
//
// The scan reads characters below 128 and nothing else, whatever the encoding: UTF-16 and
// UTF-32 (told by their first bytes, as libxml2 tells them) are read by code unit, every unit
// above 127 read as a byte that is no markup; in a document that declares an ISO-2022
// encoding, the bytes after an escape to a double-byte set are no markup either, until the
// escape back. A document that declares UTF-7 is refused: its markup can be spelled in base64.
#include "attribute_guard.h"

#include <stdlib.h>
#include <string.h>

enum { TEXT, OPEN, BANG, TAG, VALUE, COMMENT, CDATA, INSTRUCTION, STOPPED };

static int is_name_start(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80;
}

static int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Skips to just past `terminator` (of `length` characters) from `at`, carrying `*matched`
// characters of it over pieces; sets `*found` when it ended in this piece.
static size_t skip_to(const unsigned char *bytes, size_t count, size_t at, const char *terminator, int length,
                      int *matched, int *found) {
    *found = 0;
    while (at < count) {
        if (*matched == 0) {
            const unsigned char *first = memchr(bytes + at, terminator[0], count - at);
            if (!first) return count;
            at = (size_t)(first - bytes) + 1;
            *matched = 1;
        } else if (bytes[at] == (unsigned char)terminator[*matched]) {
            at++;
            if (++*matched == length) {
                *matched = 0;
                *found = 1;
                return at;
            }
        } else if (terminator[0] == terminator[*matched - 1] && bytes[at] == (unsigned char)terminator[0]) {
            at++;  // "---" is still "--" before the `>`; "]]]" likewise; "??" is "?"
        } else {
            *matched = 0;
        }
    }
    return count;
}

static int scan(tidings_attribute_guard *g, const unsigned char *bytes, size_t count, long limit) {
    size_t at = 0;
    while (at < count) {
        switch (g->state) {
        case STOPPED:
            return TIDINGS_GUARD_TOO_MANY_ATTRIBUTES;
        case TEXT: {
            const unsigned char *lt = memchr(bytes + at, '<', count - at);
            if (!lt) return 0;
            at = (size_t)(lt - bytes) + 1;
            g->state = OPEN;
            break;
        }
        case OPEN: {
            unsigned char c = bytes[at];
            if (c == '!') {
                g->state = BANG;
                g->matched = 0;
                at++;
            } else if (c == '?') {
                g->state = INSTRUCTION;
                g->matched = 0;
                at++;
            } else if (c == '/' || is_name_start(c)) {
                // An end tag is read as a tag too (its `=`, if any, count: harmless).
                g->state = TAG;
                g->attributes = 0;
                g->after_eq = 0;
                at++;
            } else if (c == '<') {
                at++;  // `<<`: the second one opens markup
            } else {
                g->state = TEXT;  // a `<` libxml2 does not read as markup either
            }
            break;
        }
        case BANG: {
            // "<!--", "<![CDATA[", or another declaration (read as a tag).
            static const char comment[] = "--", cdata[] = "[CDATA[";
            unsigned char c = bytes[at];
            if (g->matched < 2 && c == (unsigned char)comment[g->matched] && (g->matched == 0 || g->kind == '-')) {
                g->kind = '-';
                at++;
                if (++g->matched == 2) {
                    g->state = COMMENT;
                    g->matched = 0;
                    g->kind = 0;
                }
            } else if (c == (unsigned char)cdata[g->matched] && (g->matched == 0 || g->kind == '[')) {
                g->kind = '[';
                at++;
                if (++g->matched == 7) {
                    g->state = CDATA;
                    g->matched = 0;
                    g->kind = 0;
                }
            } else {
                g->state = TAG;
                g->attributes = 0;
                g->after_eq = 0;
                g->matched = 0;
                g->kind = 0;
            }
            break;
        }
        case COMMENT:
        case CDATA:
        case INSTRUCTION: {
            int found = 0;
            const char *terminator = g->state == COMMENT ? "-->" : g->state == CDATA ? "]]>" : "?>";
            at = skip_to(bytes, count, at, terminator, (int)strlen(terminator), &g->matched, &found);
            if (found) g->state = TEXT;
            break;
        }
        case TAG:
            while (at < count) {
                unsigned char c = bytes[at++];
                if (c == '>') {
                    g->state = TEXT;
                    break;
                }
                if (c == '<') {
                    g->state = OPEN;
                    break;
                }
                if (c == '=') {
                    g->after_eq = 1;
                    if (++g->attributes > limit) {
                        g->state = STOPPED;
                        return TIDINGS_GUARD_TOO_MANY_ATTRIBUTES;
                    }
                } else if ((c == '"' || c == '\'') && g->after_eq) {
                    g->kind = c;
                    g->state = VALUE;
                    break;
                } else if (!is_space(c)) {
                    g->after_eq = 0;
                }
            }
            break;
        case VALUE: {
            // To the closing quote, or to a `<`, where libxml2 gives up on the value.
            while (at < count && bytes[at] != g->kind && bytes[at] != '<') {
                const unsigned char *quote = memchr(bytes + at, g->kind, count - at);
                const unsigned char *lt = memchr(bytes + at, '<', quote ? (size_t)(quote - (bytes + at)) : count - at);
                at = lt ? (size_t)(lt - bytes) : quote ? (size_t)(quote - bytes) : count;
            }
            if (at < count) {
                g->state = bytes[at] == '<' ? OPEN : TAG;
                g->after_eq = 0;
                at++;
            }
            break;
        }
        }
    }
    return g->state == STOPPED ? TIDINGS_GUARD_TOO_MANY_ATTRIBUTES : TIDINGS_GUARD_OK;
}

// The form of the encoding, from the document's first four bytes, as libxml2 tells it.
static void start(tidings_attribute_guard *g, const unsigned char *b) {
    g->started = 1;
    g->width = 1;
    if ((b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) || (b[0] == '<' && !b[1] && !b[2] && !b[3])) {
        g->width = 4;
    } else if ((!b[0] && !b[1] && b[2] == 0xFE && b[3] == 0xFF) || (!b[0] && !b[1] && !b[2] && b[3] == '<')) {
        g->width = 4;
        g->big_endian = 1;
    } else if ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == '<' && !b[1] && b[2] == '?' && !b[3])) {
        g->width = 2;
    } else if ((b[0] == 0xFE && b[1] == 0xFF) || (!b[0] && b[1] == '<' && !b[2] && b[3] == '?')) {
        g->width = 2;
        g->big_endian = 1;
    }
    if (g->width != 1) g->declared = 1;  // UTF-16 and UTF-32 are what they are
}

// The encoding the XML declaration names, once the prolog holds the whole declaration (or 200
// bytes without one): UTF-7 refused, ISO-2022 read with its shifts.
static int declare(tidings_attribute_guard *g) {
    char prolog[201];
    int n = 0, at = 0, length = g->prolog_length;
    if (length >= 3 && g->prolog[0] == 0xEF && g->prolog[1] == 0xBB && g->prolog[2] == 0xBF) at = 3;
    int closed = 0;
    for (; at < length; at++) {
        unsigned char c = g->prolog[at];
        prolog[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        if (n >= 2 && prolog[n - 2] == '?' && prolog[n - 1] == '>') {
            closed = 1;
            break;
        }
    }
    prolog[n] = 0;
    int declaring = n >= 5 ? strncmp(prolog, "<?xml", 5) == 0 : strncmp(prolog, "<?xml", (size_t)n) == 0;
    if (!declaring || closed || length >= 200) g->declared = 1;
    if (!g->declared || !declaring) return TIDINGS_GUARD_OK;
    const char *encoding = strstr(prolog, "encoding");
    if (!encoding) return TIDINGS_GUARD_OK;
    encoding += 8;
    while (*encoding == ' ' || *encoding == '\t' || *encoding == '\r' || *encoding == '\n' || *encoding == '=' ||
           *encoding == '"' || *encoding == '\'')
        encoding++;
    if (!strncmp(encoding, "utf-7", 5) || !strncmp(encoding, "utf7", 4) || !strncmp(encoding, "unicode-1-1-utf-7", 17) ||
        !strncmp(encoding, "csunicode11utf7", 15))
        return TIDINGS_GUARD_UTF7;
    if (!strncmp(encoding, "iso-2022", 8) || !strncmp(encoding, "iso2022", 7) || !strncmp(encoding, "csiso2022", 9))
        g->iso2022 = 1;
    return TIDINGS_GUARD_OK;
}

// ISO-2022: whether byte `c` is a character of ASCII, following the shifts: SO and SI, and the
// escapes `ESC $ ...` (to a double-byte set) and `ESC ( B` or `ESC ( J` (back to ASCII).
static int iso2022_ascii(tidings_attribute_guard *g, unsigned char c) {
    if (g->escape) {
        if (g->escape == 1) {
            g->escape = c == '$' ? 2 : c == '(' ? 3 : 0;
            if (c == '$') g->shifted = 1;
        } else if (g->escape == 3) {
            if (c == 'B' || c == 'J') g->shifted = 0;
            g->escape = 0;
        } else {
            g->escape = 0;  // the set's final byte(s)
        }
        return 0;
    }
    if (c == 0x1B) {
        g->escape = 1;
        return 0;
    }
    if (c == 0x0E) g->shifted = 1;
    if (c == 0x0F) g->shifted = 0;
    return !g->shifted && c < 0x80;
}

// Scans `count` bytes in the document's form: bytes as they are, or (UTF-16, UTF-32,
// ISO-2022) its characters below 128 as bytes and every other one as 0x80.
static int scan_form(tidings_attribute_guard *g, const unsigned char *bytes, size_t count, long limit) {
    if (g->width == 1 && !g->iso2022) return scan(g, bytes, count, limit);
    unsigned char *plain = malloc(count + 1);
    if (!plain) return TIDINGS_GUARD_NO_MEMORY;
    size_t n = 0;
    if (g->width == 1) {
        for (size_t i = 0; i < count; i++) plain[n++] = iso2022_ascii(g, bytes[i]) ? bytes[i] : 0x80;
    } else {
        for (size_t i = 0; i < count; i++) {
            g->unit[g->unit_bytes++] = bytes[i];
            if (g->unit_bytes < g->width) continue;
            unsigned long value = 0;
            for (int k = 0; k < g->width; k++) {
                int index = g->big_endian ? k : g->width - 1 - k;
                value = value << 8 | g->unit[index];
            }
            plain[n++] = value < 0x80 ? (unsigned char)value : 0x80;
            g->unit_bytes = 0;
        }
    }
    int result = scan(g, plain, n, limit);
    free(plain);
    return result;
}

int tidings_attribute_guard_scan(tidings_attribute_guard *g, const unsigned char *bytes, size_t count, long limit) {
    if (g->state == STOPPED) return TIDINGS_GUARD_TOO_MANY_ATTRIBUTES;
    int waiting = g->started ? 0 : g->prolog_length;  // bytes of earlier calls not scanned yet
    if (!g->declared) {
        // The first bytes are kept until the encoding is known (libxml2 gets its first four
        // alone, to tell the encoding by).
        size_t room = (size_t)(200 - g->prolog_length);
        size_t take = count < room ? count : room;
        memcpy(g->prolog + g->prolog_length, bytes, take);
        g->prolog_length += (int)take;
        if (!g->started && g->prolog_length >= 4) start(g, g->prolog);
        if (g->started) {
            int result = declare(g);
            if (result != TIDINGS_GUARD_OK) {
                g->state = STOPPED;
                return result;
            }
        }
    }
    // Fewer than four bytes so far: nothing to tell an encoding or a tag by yet; they are
    // scanned with the next ones (from the prolog, where they are kept).
    if (!g->started) return TIDINGS_GUARD_OK;
    if (waiting > 0) {
        int result = scan_form(g, g->prolog, (size_t)waiting, limit);
        if (result != TIDINGS_GUARD_OK) return result;
    }
    return scan_form(g, bytes, count, limit);
}
