// A thin, Swift 6–friendly face over libedit's readline compatibility layer.
//
// libedit's variadic functions and its mutable C globals (`rl_*`, `stdin`) cannot be used
// directly from Swift 6 under strict concurrency, so each use is wrapped in a `static inline`
// function here. Always `<editline/readline.h>`, never `<readline/readline.h>`.
#ifndef TIDINGS_CLIBEDIT_SHIM_H
#define TIDINGS_CLIBEDIT_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <editline/readline.h>

/// Reads one line with editing; returns NULL on end of input. The caller frees the result.
static inline char *tidings_readline(const char *prompt) { return readline(prompt); }

/// Adds a line to the in-memory history.
static inline void tidings_add_history(const char *line) { add_history(line); }

/// Loads history from a file; returns 0 on success.
static inline int tidings_read_history(const char *path) { return read_history(path); }

/// Writes the in-memory history to a file; returns 0 on success.
static inline int tidings_write_history(const char *path) { return write_history(path); }

/// Keeps at most `max` entries in the history.
static inline void tidings_stifle_history(int max) { stifle_history(max); }

/// The number of entries in the history.
static inline int tidings_history_length(void) { return history_length; }

/// The history entry at 1-based `offset` from `history_base`, or NULL.
static inline const char *tidings_history_line(int index) {
    HIST_ENTRY *entry = history_get(history_base + index);
    return entry ? entry->line : NULL;
}

/// Draws the prompt and the line being edited on the terminal when standard output is not one
/// (`tidings | tee log`): libedit writes to stderr if that is a terminal, else to /dev/tty.
/// Returns 0 when a terminal was found (or standard output is one).
static inline int tidings_edit_on_terminal(void) {
    if (isatty(fileno(stdout))) return 0;
    if (isatty(fileno(stderr))) {
        rl_outstream = stderr;
        return 0;
    }
    FILE *terminal = fopen("/dev/tty", "w");
    if (!terminal) return -1;
    setvbuf(terminal, NULL, _IONBF, 0);
    rl_outstream = terminal;
    return 0;
}

/// Names the program for libedit's `~/.editrc` sections.
static inline void tidings_set_readline_name(const char *name) { rl_readline_name = name; }

/// Installs the completion hook (a C function pointer from Swift's `@convention(c)`).
static inline void tidings_set_completion(char **(*function)(const char *, int, int)) {
    rl_attempted_completion_function = function;
}

/// The whole line being edited, for context-aware completion.
static inline const char *tidings_line_buffer(void) { return rl_line_buffer; }

/// Turns off the default filename completion when our hook returns no matches.
static inline void tidings_disable_default_completion(void) { rl_attempted_completion_over = 1; }

/// The character libedit appends after a unique completion (0 for none: a directory).
static inline void tidings_set_completion_append_character(int character) {
    rl_completion_append_character = character;
}

/// Silences libedit's bell: this libedit rings it after every completion, a unique one too
/// (its `fn_complete2` beeps whenever a common part was inserted). The terminal's bell string
/// becomes a padding of no time, which writes nothing; `tidings_ring_bell` rings where a bell
/// means something.
static inline void tidings_quiet_bell(void) { rl_parse_and_bind("settc bl $<0>"); }

/// Rings the terminal's bell on the stream libedit draws on.
static inline void tidings_ring_bell(void) {
    FILE *out = rl_outstream ? rl_outstream : stdout;
    fputc('\a', out);
    fflush(out);
}

/// libedit's matches generator over a Swift callback.
static inline char **tidings_completion_matches(const char *text, char *(*generator)(const char *, int)) {
    return rl_completion_matches(text, generator);
}

#endif
