// See include/terminal.h.
#define _GNU_SOURCE
#include "terminal.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

void tidings_prepare_ctype(void) {
    setlocale(LC_CTYPE, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset && (strcasecmp(codeset, "UTF-8") == 0 || strcasecmp(codeset, "UTF8") == 0)) return;
    setlocale(LC_CTYPE, "C.UTF-8");
}

int tidings_wcwidth(unsigned int code_point) { return wcwidth((wchar_t)code_point); }

int tidings_is_foreground(int tty_fd) {
    pid_t group = tcgetpgrp(tty_fd);
    return group > 0 && group == getpgrp();
}

// Hands the terminal to `group`. The calling thread blocks SIGTTOU meanwhile: a process that
// is not in the foreground group is then allowed to change it instead of being stopped.
static void give_terminal(int tty_fd, pid_t group) {
    sigset_t ttou, old;
    sigemptyset(&ttou);
    sigaddset(&ttou, SIGTTOU);
    pthread_sigmask(SIG_BLOCK, &ttou, &old);
    tcsetpgrp(tty_fd, group);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

pid_t tidings_spawn_job(const char *path, char *const argv[], char *const envp[], int stdin_fd,
                        int close_fd, int tty_fd, int foreground) {
    // Every signal is blocked across fork so that no handler of this process runs in the child
    // before exec; the child unblocks them once its dispositions are default.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pid_t pid = fork();
    if (pid == 0) {
        // Only async-signal-safe calls from here to exec: the parent has other threads.
        if (foreground) {
            setpgid(0, 0);
            tcsetpgrp(tty_fd, getpid());  // SIGTTOU is blocked, so this cannot stop the child
        }
        static const int reset[] = {SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGWINCH};
        struct sigaction standard;
        memset(&standard, 0, sizeof standard);
        standard.sa_handler = SIG_DFL;
        sigemptyset(&standard.sa_mask);
        for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++) sigaction(reset[i], &standard, NULL);
        if (stdin_fd >= 0 && stdin_fd != STDIN_FILENO) {
            if (dup2(stdin_fd, STDIN_FILENO) < 0) _exit(126);
            close(stdin_fd);
        }
        if (close_fd >= 0) close(close_fd);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, envp);
        _exit(127);
    }
    int saved = errno;
    if (pid > 0 && foreground) {
        setpgid(pid, pid);  // fails harmlessly when the child has already exec'd or ended
        tcsetpgrp(tty_fd, pid);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return pid;
}

int tidings_wait_job(pid_t pid, int tty_fd, int foreground) {
    int status = 0;
    int result;
    for (;;) {
        pid_t ended = waitpid(pid, &status, foreground ? WUNTRACED : 0);
        if (ended < 0) {
            if (errno == EINTR) continue;
            result = -1;
            break;
        }
        if (WIFSTOPPED(status)) {
            give_terminal(tty_fd, pid);
            kill(-pid, SIGCONT);
            continue;
        }
        result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        break;
    }
    if (foreground) {
        int saved = errno;
        give_terminal(tty_fd, getpgrp());
        errno = saved;
    }
    return result;
}
