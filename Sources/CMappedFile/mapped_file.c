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
static uintptr_t page_size = 4096;  // read once in install(): sysconf is not async-signal-safe

_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the handler reads the slots with lock-free atomics");

// A fault inside one of the mappings (the file shrank: BUS_ADRERR): the rest of the mapping,
// from the faulting page on, becomes zeroed anonymous memory and the read is retried. Anything
// else (a media error, a SIGBUS sent with kill, a fault elsewhere) goes to the handler that was
// there before, or ends the process as it would have.
static void on_sigbus(int signo, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; info->si_code == BUS_ADRERR && i < SLOTS; i++) {
        uintptr_t start = atomic_load(&slots[i].start);
        size_t length = atomic_load(&slots[i].length);
        uintptr_t end = (start + length + page_size - 1) & ~(page_size - 1);
        if (start == 0 || address < start || address >= end) continue;
        uintptr_t from = address & ~(page_size - 1);
        int saved_errno = errno;
        void *zeros = mmap((void *)from, end - from, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        errno = saved_errno;
        if (zeros == MAP_FAILED) break;
        atomic_store(&slots[i].damaged, 1);
        return;
    }
    void (*handler)(int) = previous.sa_handler;
    if (handler != SIG_DFL && handler != SIG_IGN) {
        if (previous.sa_flags & SA_SIGINFO) {
            previous.sa_sigaction(signo, info, context);
        } else {
            handler(signo);
        }
        return;
    }
    // A SIGBUS sent by another process that the program ignored stays ignored. A fault cannot be
    // ignored: with the default action back, the faulting instruction runs again and ends the
    // process as it would have, with the fault's own address in the core dump.
    if (info->si_code <= 0 && handler == SIG_IGN) return;
    signal(SIGBUS, SIG_DFL);
    if (info->si_code <= 0) raise(SIGBUS);
}

static void install(void) {
    long size = sysconf(_SC_PAGESIZE);
    if (size > 0) page_size = (uintptr_t)size;
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
    // Writable and private: writing to it (a Data copied on write that happened to be the only
    // reference) changes this process's copy, never the file, and never faults.
    void *address = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE, descriptor, 0);
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
