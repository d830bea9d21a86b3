#include "CSodium.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    const char *error;
    __typeof__(sodium_init) *init;
    __typeof__(crypto_pwhash_str) *hash;
    __typeof__(crypto_pwhash_str_verify) *verify;
    __typeof__(crypto_auth_hmacsha256_init) *mac_init;
    __typeof__(crypto_auth_hmacsha256_update) *mac_update;
    __typeof__(crypto_auth_hmacsha256_final) *mac_final;
} sd_sodium;
static pthread_once_t sd_sodium_once = PTHREAD_ONCE_INIT;
static char sd_sodium_reason[512];

static void sd_sodium_open(void) {
    void *handle = dlopen("libsodium.so.23", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(sd_sodium_reason, sizeof sd_sodium_reason, "passwords and signatures need libsodium (Debian: libsodium23): %s",
                 reason ? reason : "libsodium.so.23 could not be loaded");
        sd_sodium.error = sd_sodium_reason;
        return;
    }
#define SD_SODIUM_LOAD(field, name) \
    if (!(sd_sodium.field = (__typeof__(sd_sodium.field))dlsym(handle, #name))) { sd_sodium.error = "libsodium.so.23 lacks " #name; return; }
    SD_SODIUM_LOAD(init, sodium_init)
    SD_SODIUM_LOAD(hash, crypto_pwhash_str)
    SD_SODIUM_LOAD(verify, crypto_pwhash_str_verify)
    SD_SODIUM_LOAD(mac_init, crypto_auth_hmacsha256_init)
    SD_SODIUM_LOAD(mac_update, crypto_auth_hmacsha256_update)
    SD_SODIUM_LOAD(mac_final, crypto_auth_hmacsha256_final)
#undef SD_SODIUM_LOAD
    if (sd_sodium.init() < 0) sd_sodium.error = "libsodium could not start (no usable random source)";
}

int sd_sodium_load(const char **error) {
    pthread_once(&sd_sodium_once, sd_sodium_open);
    if (sd_sodium.error) {
        *error = sd_sodium.error;
        return -1;
    }
    return 0;
}

int sd_pwhash_str(char out[crypto_pwhash_STRBYTES], const char *password, unsigned long long length) {
    const char *error;
    if (sd_sodium_load(&error) != 0) return -1;
    return sd_sodium.hash(out, password, length, crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE);
}

int sd_pwhash_str_verify(const char *stored, const char *password, unsigned long long length) {
    const char *error;
    if (sd_sodium_load(&error) != 0) return -1;
    return sd_sodium.verify(stored, password, length);
}

int sd_hmacsha256(unsigned char out[32], const unsigned char *message, unsigned long long length, const unsigned char *key, size_t key_length) {
    const char *error;
    if (sd_sodium_load(&error) != 0) return -1;
    crypto_auth_hmacsha256_state state;
    sd_sodium.mac_init(&state, key, key_length);
    sd_sodium.mac_update(&state, message, length);
    sd_sodium.mac_final(&state, out);
    return 0;
}
