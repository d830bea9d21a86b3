#include "CPostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

sd_libpq sd_libpq_table;
static pthread_once_t sd_libpq_once = PTHREAD_ONCE_INIT;
// dlerror's text lives in thread-local storage: the loading thread copies it here.
static char sd_libpq_error[512];

static void sd_libpq_load(void) {
    sd_libpq *pq = &sd_libpq_table;
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(sd_libpq_error, sizeof sd_libpq_error, "%s", reason ? reason : "libpq.so.5 could not be loaded");
        pq->error = sd_libpq_error;
        return;
    }
#define SD_LOAD(field, name) \
    if (!(pq->field = (__typeof__(pq->field))dlsym(handle, #name))) { pq->error = "libpq.so.5 lacks " #name; return; }
    SD_LOAD(connectdb, PQconnectdb)
    SD_LOAD(status, PQstatus)
    SD_LOAD(errorMessage, PQerrorMessage)
    SD_LOAD(finish, PQfinish)
    SD_LOAD(reset, PQreset)
    SD_LOAD(exec, PQexec)
    SD_LOAD(execParams, PQexecParams)
    SD_LOAD(prepare, PQprepare)
    SD_LOAD(execPrepared, PQexecPrepared)
    SD_LOAD(resultStatus, PQresultStatus)
    SD_LOAD(resultErrorField, PQresultErrorField)
    SD_LOAD(clear, PQclear)
    SD_LOAD(ntuples, PQntuples)
    SD_LOAD(cmdTuples, PQcmdTuples)
    SD_LOAD(getisnull, PQgetisnull)
    SD_LOAD(getvalue, PQgetvalue)
    SD_LOAD(unescapeBytea, PQunescapeBytea)
    SD_LOAD(freemem, PQfreemem)
    SD_LOAD(fnumber, PQfnumber)
    SD_LOAD(putCopyData, PQputCopyData)
    SD_LOAD(putCopyEnd, PQputCopyEnd)
    SD_LOAD(getResult, PQgetResult)
#undef SD_LOAD
}

const char *sd_libpq_open(void) {
    pthread_once(&sd_libpq_once, sd_libpq_load);
    return sd_libpq_table.error;
}

