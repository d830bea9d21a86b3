#ifndef STACKDAY_CCRYPTO_H
#define STACKDAY_CCRYPTO_H

// OpenSSL's libcrypto (Debian: libssl-dev for the headers, libssl3 for the library) for Web
// Push: P-256 keys, ECDH, ECDSA with SHA-256, HKDF-SHA256 and AES-128-GCM. It is opened with
// dlopen the first time a push message is made or a key generated, not linked: commands that
// never send a push do not load it.

#include <stddef.h>
#include <stdint.h>

/// Opens libcrypto.so.3 once; 0 when ready, else -1 with `error` naming the Debian package.
int sd_crypto_load(const char **error);

/// A new P-256 key pair: the private scalar (32 bytes, big-endian) and the public point,
/// uncompressed (65 bytes, 0x04 || X || Y). 0 on success.
int sd_p256_generate(uint8_t private_key[32], uint8_t public_key[65]);

/// The ECDH shared secret (the X coordinate, 32 bytes) of our private scalar and a peer's
/// uncompressed public point; -1 for a point not on the curve. `public_key` is ours, for the
/// key pair libcrypto checks.
int sd_p256_ecdh(const uint8_t private_key[32], const uint8_t public_key[65], const uint8_t peer[65], uint8_t secret[32]);

/// ECDSA over SHA-256 of `message` (ES256): the signature as r || s, 32 bytes each.
int sd_p256_sign(const uint8_t private_key[32], const uint8_t public_key[65], const uint8_t *message, size_t length, uint8_t signature[64]);

/// HKDF-SHA256 (RFC 5869): `length` bytes from `ikm` under `salt` and `info`.
int sd_hkdf_sha256(const uint8_t *salt, size_t salt_length, const uint8_t *ikm, size_t ikm_length, const uint8_t *info, size_t info_length,
                   uint8_t *out, size_t length);

/// AES-128-GCM: `out` gets the ciphertext (`length` bytes) followed by the 16-byte tag.
int sd_aes128gcm_seal(const uint8_t key[16], const uint8_t nonce[12], const uint8_t *plaintext, size_t length, uint8_t *out);

/// `length` bytes from libcrypto's random generator.
int sd_crypto_random(uint8_t *out, size_t length);

#endif
