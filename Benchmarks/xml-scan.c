// The least work a byte-level XML reader of our own would do on a well-formed UTF-8 feed, as
// evidence for whether one is worth writing (see the README's benchmark notes): find the
// markup, read element and attribute names and quoted values, validate every text and value as
// UTF-8, find entity references (without decoding them), skip CDATA sections, comments and
// processing instructions. No namespaces, no decoding, no callbacks, no tree: a real reader
// does all of this and more, so it can only be slower.
//
// Usage: xml-scan FILE [REPEATS]; prints the median seconds of one pass over the mapped file.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

static int name_byte(unsigned char c) {
    return c >= 0x80 || (unsigned)((c | 32) - 'a') < 26u || (unsigned)(c - '0') < 10u || c == '_' || c == '-' ||
           c == '.' || c == ':';
}

// Whether `n` bytes at `p` are well-formed UTF-8 (eight ASCII bytes at a time where it can).
static int valid_utf8(const unsigned char *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        while (i + 8 <= n) {
            uint64_t word;
            memcpy(&word, p + i, 8);
            if (word & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        unsigned char c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
        if (!length || i + length > n) return 0;
        for (size_t k = 1; k < length; k++)
            if ((p[i + k] & 0xC0) != 0x80) return 0;
        i += length;
    }
    return 1;
}

typedef struct {
    long tags, attributes, texts, references, invalid;
} Counts;

static void text(const unsigned char *p, size_t n, Counts *counts) {
    if (!n) return;
    counts->texts++;
    if (!valid_utf8(p, n)) counts->invalid++;
    for (const unsigned char *at = p; (at = memchr(at, '&', (size_t)(p + n - at))); at++) counts->references++;
}

static void scan(const unsigned char *d, size_t n, Counts *counts) {
    size_t i = 0;
    while (i < n) {
        const unsigned char *open = memchr(d + i, '<', n - i);
        size_t end = open ? (size_t)(open - d) : n;
        text(d + i, end - i, counts);
        if (!open) return;
        i = end + 1;
        const char *end_mark = NULL;
        int cdata = 0;
        if (n - i >= 8 && !memcmp(d + i, "![CDATA[", 8)) i += 8, end_mark = "]]>", cdata = 1;
        else if (n - i >= 3 && !memcmp(d + i, "!--", 3)) end_mark = "-->";
        else if (i < n && d[i] == '!') end_mark = ">";  // a declaration; a DOCTYPE's subset is not read
        else if (i < n && d[i] == '?') end_mark = "?>";
        if (end_mark) {
            size_t mark = strlen(end_mark);
            const unsigned char *found = memmem(d + i, n - i, end_mark, mark);
            if (!found) return;
            if (cdata && !valid_utf8(d + i, (size_t)(found - (d + i)))) counts->invalid++;
            i = (size_t)(found - d) + mark;
            continue;
        }
        if (i < n && d[i] == '/') i++;
        size_t start = i;
        while (i < n && name_byte(d[i])) i++;
        if (i == start) {
            counts->invalid++;
            continue;
        }
        counts->tags++;
        for (;;) {
            while (i < n && (d[i] == ' ' || d[i] == '\n' || d[i] == '\t' || d[i] == '\r')) i++;
            if (i >= n) return;
            if (d[i] == '>') {
                i++;
                break;
            }
            if (d[i] == '/' && i + 1 < n && d[i + 1] == '>') {
                i += 2;
                break;
            }
            start = i;
            while (i < n && name_byte(d[i])) i++;
            if (i == start || i + 1 >= n || d[i] != '=' || (d[i + 1] != '"' && d[i + 1] != '\'')) {
                counts->invalid++;
                break;
            }
            unsigned char quote = d[i + 1];
            i += 2;
            const unsigned char *value_end = memchr(d + i, quote, n - i);
            if (!value_end) return;
            text(d + i, (size_t)(value_end - (d + i)), counts);
            counts->attributes++;
            i = (size_t)(value_end - d) + 1;
        }
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: xml-scan FILE [REPEATS]\n");
        return 2;
    }
    int repeats = argc > 2 ? atoi(argv[2]) : 10;
    if (repeats < 1 || repeats > 1000) repeats = 10;
    int fd = open(argv[1], O_RDONLY);
    struct stat status;
    if (fd < 0 || fstat(fd, &status) != 0 || status.st_size == 0) {
        perror(argv[1]);
        return 1;
    }
    size_t n = (size_t)status.st_size;
    const unsigned char *d = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    if (d == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    double *seconds = calloc((size_t)repeats, sizeof *seconds);
    Counts counts = {0};
    for (int r = 0; r < repeats; r++) {
        struct timespec t0, t1;
        counts = (Counts){0};
        clock_gettime(CLOCK_MONOTONIC, &t0);
        scan(d, n, &counts);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        seconds[r] = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    }
    qsort(seconds, (size_t)repeats, sizeof *seconds, compare);
    printf("%.6f\n", seconds[repeats / 2]);
    fprintf(stderr, "tags %ld, attributes %ld, texts %ld, references %ld, invalid %ld\n", counts.tags,
            counts.attributes, counts.texts, counts.references, counts.invalid);
    return 0;
}
