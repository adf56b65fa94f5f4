// See include/interrupts.h.
#include <malloc.h>
#include "interrupts.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>
#include <editline/readline.h>

static int sigint_write_fd = -1;
// Atomics, not `volatile sig_atomic_t`: the handler runs on whichever thread the signal lands
// on, while the line editor sets and reads these on a worker thread (ThreadSanitizer saw both
// races). Lock-free atomics are safe in a signal handler.
static atomic_int at_prompt = 0;
static atomic_int prompt_interrupted = 0;
static int pending_newline = 0;

// At the prompt: mark the line to be dropped (the key reader acts on it). Otherwise one byte
// down the pipe, so the program can cancel the running command.
// errno is kept: the code the signal interrupts may be about to read it (read_key's poll).
static void on_sigint(int signo) {
    (void)signo;
    if (atomic_load(&at_prompt)) {
        atomic_store(&prompt_interrupted, 1);
        return;
    }
    int saved_errno = errno;
    char byte = 1;
    if (sigint_write_fd >= 0) {
        ssize_t ignored = write(sigint_write_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

// libedit's key reader: waits for a key in short polls so a Ctrl-C at the prompt is seen at
// once, and turns it into ^U (kill the line) then Enter: the line is dropped and a fresh prompt
// drawn, as a shell does.
static int read_key(FILE *stream) {
    if (pending_newline) {
        pending_newline = 0;
        return '\n';
    }
    int fd = fileno(stream);
    for (;;) {
        if (atomic_exchange(&prompt_interrupted, 0)) {
            pending_newline = 1;
            return 0x15;
        }
        struct pollfd waiting = {.fd = fd, .events = POLLIN};
        int ready = poll(&waiting, 1, 100);
        if (ready < 0 && errno != EINTR) return EOF;
        if (ready <= 0) continue;
        unsigned char key;
        ssize_t count = read(fd, &key, 1);
        if (count == 1) return key;
        if (count < 0 && errno == EINTR) continue;
        return EOF;
    }
}

int tidings_install_sigint(void) {
    rl_getc_function = read_key;
    rl_catch_signals = 0;  // libedit must not install its own handlers over ours
    int fds[2];
    if (pipe(fds) != 0) return -1;
    sigint_write_fd = fds[1];
    struct sigaction action;
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    return fds[0];
}

void tidings_set_at_prompt(int value) { atomic_store(&at_prompt, value); }

int tidings_limit_malloc_arenas(int count) {
#ifdef M_ARENA_MAX
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}
