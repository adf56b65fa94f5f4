// Ctrl-C for the REPL: a SIGINT handler and libedit's key reader, in one C file so they share
// one copy of their state (static variables in a header would be duplicated per Swift file).
#ifndef TIDINGS_INTERRUPTS_H
#define TIDINGS_INTERRUPTS_H

/// Installs the SIGINT handler and libedit's key reader (call before libedit initialises) and
/// returns the read end of a pipe that receives one byte per Ctrl-C pressed while no line is
/// being edited, or -1 when it could not.
int tidings_install_sigint(void);

/// Marks whether the line editor is waiting for a line: a Ctrl-C then drops the line instead.
void tidings_set_at_prompt(int value);

/// Process set-up beside the signals: limits glibc's malloc to `count` arenas
/// (`mallopt(M_ARENA_MAX)`, which Swift cannot see); returns 1 on success. Call before threads
/// start.
int tidings_limit_malloc_arenas(int count);

#endif
