#ifndef TIDINGS_CONNECTION_H
#define TIDINGS_CONNECTION_H

typedef struct sqlite3 sqlite3;

/// Tells SQLite not to checkpoint the write-ahead log when `db`, the file's last connection,
/// closes (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`; a variadic call Swift cannot make). Returns an
/// SQLite result code.
int tidings_skip_checkpoint_on_close(sqlite3 *db);

/// Turns off SQLite's memory statistics for the process (SQLITE_CONFIG_MEMSTATUS). With them on,
/// every allocation SQLite makes takes one global mutex, and the system library has no lookaside
/// allocator (SQLITE_OMIT_LOOKASIDE): two connections working at once on two threads (the
/// articles' writer and the search index's) spend their time waiting for each other. Only
/// possible before SQLite is initialized; returns SQLITE_MISUSE after.
int tidings_disable_memory_statistics(void);

#endif
