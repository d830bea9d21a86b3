#ifndef STACKDAY_CSODIUM_H
#define STACKDAY_CSODIUM_H

// libsodium (Debian: libsodium-dev for the header, libsodium23 for the library): Argon2id for
// users' passwords and HMAC-SHA256 for webhook signatures. It is opened with dlopen the first
// time one is needed, not linked: commands that never hash a password do not load it.

#include <stddef.h>
#include <sodium.h>

/// Opens libsodium.so.23 once and starts it; 0 when ready, else -1 with `error` naming the
/// Debian package.
int sd_sodium_load(const char **error);

/// `crypto_pwhash_str` and `crypto_pwhash_str_verify` (after `sd_sodium_load` succeeded).
int sd_pwhash_str(char out[crypto_pwhash_STRBYTES], const char *password, unsigned long long length);
int sd_pwhash_str_verify(const char *stored, const char *password, unsigned long long length);

/// HMAC-SHA256 of `message` under `key` into `out` (32 bytes); -1 when libsodium is missing.
int sd_hmacsha256(unsigned char out[32], const unsigned char *message, unsigned long long length, const unsigned char *key, size_t key_length);

/// The Argon2id parameters StackDay hashes passwords with: libsodium's "interactive" limits (2
/// passes over 64 MiB, about a tenth of a second on one core), as a sign-in is a request a
/// server answers while others wait.
static inline size_t sd_pwhash_strbytes(void) { return crypto_pwhash_STRBYTES; }

#endif
