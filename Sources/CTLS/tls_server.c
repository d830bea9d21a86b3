#include "CTLS.h"

#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include "gnutls_table.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The certificate the process serves. A reload installs a new one; the old ones stay allocated
// until the process ends (a handshake in progress may still hold them, and reloads are rare).
typedef struct sd_tls_identity {
    gnutls_pcert_st certificates[16];
    unsigned int count;
    gnutls_privkey_t key;
    char fingerprint[65];
    struct sd_tls_identity *previous;
} sd_tls_identity;

static pthread_mutex_t identity_lock = PTHREAD_MUTEX_INITIALIZER;
static sd_tls_identity *current;
static _Thread_local char load_error[512];

static int fail(const char **error, const char *file, const char *what, int code) {
    snprintf(load_error, sizeof load_error, "%s: %s%s%s", file, what, code ? ": " : "", code ? gnutls_strerror(code) : "");
    *error = load_error;
    return -1;
}

int sd_tls_server_load(const char *cert_file, const char *key_file, const char **error) {
    if (sd_gnutls_load(error) != 0) return -1;
    sd_tls_identity *identity = calloc(1, sizeof *identity);
    if (!identity) return fail(error, cert_file, "out of memory", 0);
    identity->count = sizeof identity->certificates / sizeof identity->certificates[0];
    int code = gnutls_pcert_list_import_x509_file(identity->certificates, &identity->count, cert_file, GNUTLS_X509_FMT_PEM, NULL, NULL, 0);
    if (code < 0) {
        free(identity);
        return fail(error, cert_file, "cannot read the certificate (PEM)", code);
    }
    gnutls_datum_t key = {NULL, 0};
    code = gnutls_load_file(key_file, &key);
    if (code < 0) {
        for (unsigned int index = 0; index < identity->count; index++) gnutls_pcert_deinit(&identity->certificates[index]);
        free(identity);
        return fail(error, key_file, "cannot read the key", code);
    }
    gnutls_privkey_init(&identity->key);
    code = gnutls_privkey_import_x509_raw(identity->key, &key, GNUTLS_X509_FMT_PEM, NULL, 0);
    gnutls_free(key.data);
    if (code < 0) {
        gnutls_privkey_deinit(identity->key);
        for (unsigned int index = 0; index < identity->count; index++) gnutls_pcert_deinit(&identity->certificates[index]);
        free(identity);
        return fail(error, key_file, "is not a private key (PEM)", code);
    }
    // The key must be the certificate's: a mismatch would fail every handshake instead.
    gnutls_pubkey_t from_key;
    gnutls_pubkey_init(&from_key);
    unsigned char certificate_id[64], key_id[64];
    size_t certificate_size = sizeof certificate_id, key_size = sizeof key_id;
    int matches = gnutls_pubkey_import_privkey(from_key, identity->key, 0, 0) == 0
        && gnutls_pubkey_get_key_id(from_key, GNUTLS_KEYID_USE_SHA256, key_id, &key_size) == 0
        && gnutls_pubkey_get_key_id(identity->certificates[0].pubkey, GNUTLS_KEYID_USE_SHA256, certificate_id, &certificate_size) == 0
        && key_size == certificate_size && memcmp(key_id, certificate_id, key_size) == 0;
    gnutls_pubkey_deinit(from_key);
    if (!matches) {
        gnutls_privkey_deinit(identity->key);
        for (unsigned int index = 0; index < identity->count; index++) gnutls_pcert_deinit(&identity->certificates[index]);
        free(identity);
        return fail(error, key_file, "is not the key of the certificate's public key", 0);
    }
    unsigned char digest[32];
    gnutls_hash_fast(GNUTLS_DIG_SHA256, identity->certificates[0].cert.data, identity->certificates[0].cert.size, digest);
    for (int index = 0; index < 32; index++) snprintf(identity->fingerprint + 2 * index, 3, "%02x", digest[index]);
    pthread_mutex_lock(&identity_lock);
    identity->previous = current;
    current = identity;
    pthread_mutex_unlock(&identity_lock);
    return 0;
}

int sd_tls_server_loaded(void) {
    pthread_mutex_lock(&identity_lock);
    int loaded = current != NULL;
    pthread_mutex_unlock(&identity_lock);
    return loaded;
}

int sd_tls_server_fingerprint(char out[65]) {
    pthread_mutex_lock(&identity_lock);
    int loaded = current != NULL;
    if (loaded) memcpy(out, current->fingerprint, 65);
    pthread_mutex_unlock(&identity_lock);
    return loaded ? 0 : -1;
}

static int retrieve(gnutls_session_t session, const gnutls_datum_t *requested_names, int name_count,
                    const gnutls_pk_algorithm_t *algorithms, int algorithm_count, gnutls_pcert_st **certificates,
                    unsigned int *count, gnutls_privkey_t *key) {
    (void)session; (void)requested_names; (void)name_count; (void)algorithms; (void)algorithm_count;
    pthread_mutex_lock(&identity_lock);
    sd_tls_identity *identity = current;
    pthread_mutex_unlock(&identity_lock);
    if (!identity) return -1;
    *certificates = identity->certificates;
    *count = identity->count;
    *key = identity->key;
    return 0;
}

void *sd_tls_server_callback(void) { return (void *)&retrieve; }
