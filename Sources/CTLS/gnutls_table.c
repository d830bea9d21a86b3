#define SD_GNUTLS_LOADER
#include "gnutls_table.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

sd_gnutls_functions sd_gnutls;
static pthread_once_t sd_gnutls_once = PTHREAD_ONCE_INIT;
static const char *sd_gnutls_error;
static char sd_gnutls_reason[512];

static void sd_gnutls_open(void) {
    void *handle = dlopen("libgnutls.so.30", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(sd_gnutls_reason, sizeof sd_gnutls_reason, "TLS needs GnuTLS (Debian: libgnutls30): %s",
                 reason ? reason : "libgnutls.so.30 could not be loaded");
        sd_gnutls_error = sd_gnutls_reason;
        return;
    }
#define SD_GNUTLS_LOAD(name) \
    if (!(sd_gnutls.name = (__typeof__(sd_gnutls.name))dlsym(handle, "gnutls_" #name))) { \
        sd_gnutls_error = "libgnutls.so.30 lacks gnutls_" #name; \
        return; \
    }
    SD_GNUTLS_FUNCTIONS(SD_GNUTLS_LOAD)
#undef SD_GNUTLS_LOAD
    gnutls_free_function *release = dlsym(handle, "gnutls_free");
    if (!release || !*release) {
        sd_gnutls_error = "libgnutls.so.30 lacks gnutls_free";
        return;
    }
    sd_gnutls.release = *release;
    int code = sd_gnutls.global_init();
    if (code < 0) {
        snprintf(sd_gnutls_reason, sizeof sd_gnutls_reason, "GnuTLS could not start: %s", sd_gnutls.strerror(code));
        sd_gnutls_error = sd_gnutls_reason;
    }
}

int sd_gnutls_load(const char **error) {
    pthread_once(&sd_gnutls_once, sd_gnutls_open);
    if (sd_gnutls_error) {
        *error = sd_gnutls_error;
        return -1;
    }
    return 0;
}
