#ifndef TIDINGS_CONNECTION_H
#define TIDINGS_CONNECTION_H

typedef struct sqlite3 sqlite3;

/// Tells SQLite not to checkpoint the write-ahead log when `db`, the file's last connection,
/// closes (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`; a variadic call Swift cannot make). Returns an
/// SQLite result code.
int tidings_skip_checkpoint_on_close(sqlite3 *db);

#endif
