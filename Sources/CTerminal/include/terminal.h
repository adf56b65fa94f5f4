// The terminal, for the REPL: the C library's character widths (wcwidth) under a UTF-8
// character type, and job control for the programs the session hands the terminal to.
#ifndef TIDINGS_TERMINAL_H
#define TIDINGS_TERMINAL_H

#include <sys/types.h>

/// Sets LC_CTYPE from the environment, or to C.UTF-8 when the environment's is not UTF-8, so
/// that wcwidth knows every character. Call once, before the first `tidings_wcwidth`.
void tidings_prepare_ctype(void);

/// The columns the code point takes on a terminal: 0, 1 or 2; -1 for a control or unknown one.
int tidings_wcwidth(unsigned int code_point);

/// Whether this process's group is the foreground group of the terminal `tty_fd` refers to
/// (false when it is not this process's controlling terminal).
int tidings_is_foreground(int tty_fd);

/// Starts `path` with `argv` and `envp` as a shell starts a foreground job: when `foreground`
/// is non-zero the child gets a process group of its own and that group gets the terminal
/// `tty_fd` (both parent and child set it, so the child never touches the terminal before it
/// holds it). Signal dispositions the session changed (SIGINT, SIGPIPE, the job-control
/// signals) are default again in the child. `stdin_fd` becomes its standard input (-1: keep
/// this process's); `close_fd` is closed in the child (-1: none). Returns the child's pid, or
/// -1 with errno set.
pid_t tidings_spawn_job(const char *path, char *const argv[], char *const envp[], int stdin_fd,
                        int close_fd, int tty_fd, int foreground);

/// Waits for a child started by `tidings_spawn_job` to end. A foreground child that stops
/// (Ctrl-Z in a pager, or a read of the terminal it does not hold) is given the terminal again
/// and continued: the session has no job table to park it in. Afterwards this process's group
/// takes the terminal back. Returns the exit status, 128 + the signal that ended the child,
/// or -1 with errno set.
int tidings_wait_job(pid_t pid, int tty_fd, int foreground);

#endif
