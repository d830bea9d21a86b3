#ifndef STACKDAY_CPOSTGRES_H
#define STACKDAY_CPOSTGRES_H

// libpq is loaded with dlopen on the first connection, not linked: a binary that never talks to
// PostgreSQL does not load libpq and the two dozen libraries it needs (TLS, Kerberos, LDAP) at
// every start. libpq-fe.h (Debian: libpq-dev) gives the types; `sd_libpq_open` the functions;
// `sd_PQ…` call them.

#include <stddef.h>
#include <postgresql/libpq-fe.h>

typedef struct sd_libpq {
    const char *error;
    __typeof__(PQconnectdb) *connectdb;
    __typeof__(PQstatus) *status;
    __typeof__(PQerrorMessage) *errorMessage;
    __typeof__(PQfinish) *finish;
    __typeof__(PQreset) *reset;
    __typeof__(PQexec) *exec;
    __typeof__(PQexecParams) *execParams;
    __typeof__(PQprepare) *prepare;
    __typeof__(PQexecPrepared) *execPrepared;
    __typeof__(PQresultStatus) *resultStatus;
    __typeof__(PQresultErrorField) *resultErrorField;
    __typeof__(PQclear) *clear;
    __typeof__(PQntuples) *ntuples;
    __typeof__(PQcmdTuples) *cmdTuples;
    __typeof__(PQgetisnull) *getisnull;
    __typeof__(PQgetvalue) *getvalue;
    __typeof__(PQunescapeBytea) *unescapeBytea;
    __typeof__(PQfreemem) *freemem;
    __typeof__(PQfnumber) *fnumber;
    __typeof__(PQputCopyData) *putCopyData;
    __typeof__(PQputCopyEnd) *putCopyEnd;
    __typeof__(PQgetResult) *getResult;
} sd_libpq;

/// The loaded functions; valid once `sd_libpq_open` answered NULL.
extern sd_libpq sd_libpq_table;

/// Loads libpq once (thread-safe); NULL when it is ready, else why it could not be loaded. The
/// `sd_PQ…` functions may be called only after this answered NULL.
const char *sd_libpq_open(void);

static inline PGconn *sd_PQconnectdb(const char *info) { return sd_libpq_table.connectdb(info); }
static inline ConnStatusType sd_PQstatus(const PGconn *conn) { return sd_libpq_table.status(conn); }
static inline char *sd_PQerrorMessage(const PGconn *conn) { return sd_libpq_table.errorMessage(conn); }
static inline void sd_PQfinish(PGconn *conn) { sd_libpq_table.finish(conn); }
static inline void sd_PQreset(PGconn *conn) { sd_libpq_table.reset(conn); }
static inline PGresult *sd_PQexec(PGconn *conn, const char *query) { return sd_libpq_table.exec(conn, query); }
static inline PGresult *sd_PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                                        const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
    return sd_libpq_table.execParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat);
}
static inline PGresult *sd_PQprepare(PGconn *conn, const char *name, const char *query, int nParams) {
    return sd_libpq_table.prepare(conn, name, query, nParams, NULL);
}
static inline PGresult *sd_PQexecPrepared(PGconn *conn, const char *name, int nParams, const char *const *paramValues) {
    return sd_libpq_table.execPrepared(conn, name, nParams, paramValues, NULL, NULL, 0);
}
static inline ExecStatusType sd_PQresultStatus(const PGresult *res) { return sd_libpq_table.resultStatus(res); }
static inline char *sd_PQresultErrorField(const PGresult *res, int fieldcode) { return sd_libpq_table.resultErrorField(res, fieldcode); }
static inline void sd_PQclear(PGresult *res) { sd_libpq_table.clear(res); }
static inline int sd_PQntuples(const PGresult *res) { return sd_libpq_table.ntuples(res); }
static inline char *sd_PQcmdTuples(PGresult *res) { return sd_libpq_table.cmdTuples(res); }
static inline int sd_PQgetisnull(const PGresult *res, int row, int column) { return sd_libpq_table.getisnull(res, row, column); }
static inline char *sd_PQgetvalue(const PGresult *res, int row, int column) { return sd_libpq_table.getvalue(res, row, column); }
/// A bytea value's bytes from its text form (hex or the older escapes), malloc'd by libpq: free
/// them with `sd_PQfreemem`. NULL when libpq could not allocate them.
static inline unsigned char *sd_PQunescapeBytea(const char *text, size_t *length) {
    return sd_libpq_table.unescapeBytea((const unsigned char *)text, length);
}
static inline void sd_PQfreemem(void *memory) { sd_libpq_table.freemem(memory); }
static inline int sd_PQfnumber(const PGresult *res, const char *name) { return sd_libpq_table.fnumber(res, name); }
static inline int sd_PQputCopyData(PGconn *conn, const char *buffer, int nbytes) { return sd_libpq_table.putCopyData(conn, buffer, nbytes); }
static inline int sd_PQputCopyEnd(PGconn *conn, const char *errormsg) { return sd_libpq_table.putCopyEnd(conn, errormsg); }
static inline PGresult *sd_PQgetResult(PGconn *conn) { return sd_libpq_table.getResult(conn); }

#endif
