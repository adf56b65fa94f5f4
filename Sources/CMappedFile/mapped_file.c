// See include/mapped_file.h.
#include "mapped_file.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// The mappings open now. The SIGBUS handler reads them, so a slot is published with atomics:
// `start` is set last when a slot is taken and cleared first when it is given back.
#define SLOTS 64
typedef struct {
    atomic_uintptr_t start;
    atomic_size_t length;
    atomic_int damaged;
} Slot;
static Slot slots[SLOTS];

static struct sigaction previous;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int installed = 0;

// A fault inside one of the mappings (the file shrank): the rest of the mapping, from the
// faulting page on, becomes zeroed anonymous memory and the read is retried. Any other SIGBUS
// goes to the handler that was there before, or ends the process as it would have.
static void on_sigbus(int signo, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t start = atomic_load(&slots[i].start);
        size_t length = atomic_load(&slots[i].length);
        if (start == 0 || address < start || address >= start + length) continue;
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t from = address & ~(page - 1);
        int saved_errno = errno;
        void *zeros = mmap((void *)from, start + length - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                           -1, 0);
        errno = saved_errno;
        if (zeros == MAP_FAILED) break;
        atomic_store(&slots[i].damaged, 1);
        return;
    }
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) {
            previous.sa_sigaction(signo, info, context);
            return;
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signo);
        return;
    }
    signal(SIGBUS, SIG_DFL);
    raise(SIGBUS);
}

static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    installed = sigaction(SIGBUS, &action, &previous) == 0;
}

const void *tidings_map_file(int descriptor, size_t length) {
    if (length == 0) {
        errno = EINVAL;
        return NULL;
    }
    pthread_once(&install_once, install);
    if (!installed) {
        errno = ENOTSUP;
        return NULL;
    }
    void *address = mmap(NULL, length, PROT_READ, MAP_PRIVATE, descriptor, 0);
    if (address == MAP_FAILED) return NULL;
    for (int i = 0; i < SLOTS; i++) {
        size_t none = 0;
        // A slot is taken by its length (never 0 for a live mapping), then published by its start.
        if (atomic_compare_exchange_strong(&slots[i].length, &none, length)) {
            atomic_store(&slots[i].damaged, 0);
            atomic_store(&slots[i].start, (uintptr_t)address);
            return address;
        }
    }
    munmap(address, length);
    errno = EMFILE;
    return NULL;
}

int tidings_unmap_file(const void *address, size_t length) {
    int damaged = 0;
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&slots[i].start) != (uintptr_t)address) continue;
        atomic_store(&slots[i].start, 0);
        damaged = atomic_load(&slots[i].damaged);
        munmap((void *)address, length);
        atomic_store(&slots[i].length, 0);
        return damaged;
    }
    munmap((void *)address, length);
    return damaged;
}
