#ifndef STACKDAY_CSODIUM_SHIM_H
#define STACKDAY_CSODIUM_SHIM_H

#include <sodium.h>

/// The Argon2id parameters StackDay hashes passwords with: libsodium's "interactive" limits (2
/// passes over 64 MiB, about a tenth of a second on one core), as a sign-in is a request a
/// server answers while others wait.
static inline unsigned long long sd_pwhash_opslimit(void) { return crypto_pwhash_OPSLIMIT_INTERACTIVE; }
static inline size_t sd_pwhash_memlimit(void) { return crypto_pwhash_MEMLIMIT_INTERACTIVE; }
static inline size_t sd_pwhash_strbytes(void) { return crypto_pwhash_STRBYTES; }

#endif
