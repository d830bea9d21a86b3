#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Declared by gnutls_table.h, which is not included here: this file names GnuTLS's own symbols.
#define SD_GNUTLS_FUNCTIONS(X) \
    X(strerror) X(certificate_free_credentials) X(pcert_deinit) X(deinit) X(pubkey_get_key_id) X(privkey_deinit) \
    X(transport_set_int2) X(session_set_verify_cert) X(session_get_verify_cert_status) X(server_name_set) X(record_send) \
    X(record_recv) X(pubkey_init) X(pubkey_import_privkey) X(pubkey_deinit) X(privkey_init) X(privkey_import_x509_raw) \
    X(priority_set_direct) X(pcert_list_import_x509_file) X(load_file) X(init) X(hash_fast) X(handshake_set_timeout) \
    X(handshake) X(error_is_fatal) X(credentials_set) X(certificate_set_x509_trust_file) \
    X(certificate_set_x509_system_trust) X(certificate_allocate_credentials) X(bye) X(global_init)

typedef struct sd_gnutls_functions {
#define SD_GNUTLS_FIELD(name) __typeof__(gnutls_##name) *name;
    SD_GNUTLS_FUNCTIONS(SD_GNUTLS_FIELD)
#undef SD_GNUTLS_FIELD
    gnutls_free_function release;
} sd_gnutls_functions;

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
