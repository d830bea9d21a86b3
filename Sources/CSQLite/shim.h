#ifndef STACKDAY_CSQLITE_SHIM_H
#define STACKDAY_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bytes before returning. */
static inline int stackday_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int stackday_sqlite3_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes ? bytes : "", length, SQLITE_TRANSIENT);
}

/* `gettid` through `syscall`, which Swift cannot call (variadic): lowers this thread's CPU
   priority alone by `by` (Linux schedules threads one by one). */
static inline int stackday_lower_thread_priority(int by) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), by);
}

#endif
