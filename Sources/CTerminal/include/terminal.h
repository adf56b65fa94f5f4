// The C library's character widths for the terminal (wcwidth), under a UTF-8 character type.
#ifndef TIDINGS_TERMINAL_H
#define TIDINGS_TERMINAL_H

/// Sets LC_CTYPE from the environment, or to C.UTF-8 when the environment's is not UTF-8, so
/// that wcwidth knows every character. Call once, before the first `tidings_wcwidth`.
void tidings_prepare_ctype(void);

/// The columns the code point takes on a terminal: 0, 1 or 2; -1 for a control or unknown one.
int tidings_wcwidth(unsigned int code_point);

#endif
