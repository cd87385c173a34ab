#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

// The two calls Swift cannot make as SQLite declares them.

// sqlite3_db_config is variadic. The connection is to a private copy that is deleted
// afterwards, so checkpointing its WAL into it when it closes would only cost time.
static inline int csqlite_skip_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift does not import:
// SQLite copies the text before this returns.
static inline int csqlite_bind_transient_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
#endif
