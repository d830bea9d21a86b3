#include "CCrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

// Each libcrypto function used, looked up once by name.
static struct {
    const char *error;
    __typeof__(EVP_PKEY_Q_keygen) *q_keygen;
    __typeof__(EVP_PKEY_get_bn_param) *get_bn_param;
    __typeof__(EVP_PKEY_get_octet_string_param) *get_octet_param;
    __typeof__(EVP_PKEY_free) *pkey_free;
    __typeof__(EVP_PKEY_CTX_new_from_name) *ctx_from_name;
    __typeof__(EVP_PKEY_CTX_new_from_pkey) *ctx_from_pkey;
    __typeof__(EVP_PKEY_CTX_new_id) *ctx_new_id;
    __typeof__(EVP_PKEY_CTX_free) *ctx_free;
    __typeof__(EVP_PKEY_fromdata_init) *fromdata_init;
    __typeof__(EVP_PKEY_fromdata) *fromdata;
    __typeof__(EVP_PKEY_derive_init) *derive_init;
    __typeof__(EVP_PKEY_derive_set_peer) *derive_set_peer;
    __typeof__(EVP_PKEY_derive) *derive;
    __typeof__(EVP_PKEY_CTX_set_hkdf_md) *hkdf_md;
    __typeof__(EVP_PKEY_CTX_set1_hkdf_salt) *hkdf_salt;
    __typeof__(EVP_PKEY_CTX_set1_hkdf_key) *hkdf_key;
    __typeof__(EVP_PKEY_CTX_add1_hkdf_info) *hkdf_info;
    __typeof__(EVP_sha256) *sha256;
    __typeof__(EVP_MD_CTX_new) *md_new;
    __typeof__(EVP_MD_CTX_free) *md_free;
    __typeof__(EVP_DigestSignInit) *sign_init;
    __typeof__(EVP_DigestSign) *sign;
    __typeof__(d2i_ECDSA_SIG) *d2i_sig;
    __typeof__(ECDSA_SIG_get0) *sig_get0;
    __typeof__(ECDSA_SIG_free) *sig_free;
    __typeof__(BN_bin2bn) *bin2bn;
    __typeof__(BN_bn2binpad) *bn2binpad;
    __typeof__(BN_clear_free) *bn_free;
    __typeof__(OSSL_PARAM_BLD_new) *bld_new;
    __typeof__(OSSL_PARAM_BLD_push_utf8_string) *bld_utf8;
    __typeof__(OSSL_PARAM_BLD_push_BN) *bld_bn;
    __typeof__(OSSL_PARAM_BLD_push_octet_string) *bld_octets;
    __typeof__(OSSL_PARAM_BLD_to_param) *bld_to_param;
    __typeof__(OSSL_PARAM_BLD_free) *bld_free;
    __typeof__(OSSL_PARAM_free) *param_free;
    __typeof__(EVP_CIPHER_CTX_new) *cipher_new;
    __typeof__(EVP_CIPHER_CTX_free) *cipher_free;
    __typeof__(EVP_aes_128_gcm) *aes128gcm;
    __typeof__(EVP_EncryptInit_ex) *encrypt_init;
    __typeof__(EVP_EncryptUpdate) *encrypt_update;
    __typeof__(EVP_EncryptFinal_ex) *encrypt_final;
    __typeof__(EVP_CIPHER_CTX_ctrl) *cipher_ctrl;
    __typeof__(RAND_bytes) *random;
} sd_crypto;
static pthread_once_t sd_crypto_once = PTHREAD_ONCE_INIT;
static char sd_crypto_reason[512];

static void sd_crypto_open(void) {
    void *handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(sd_crypto_reason, sizeof sd_crypto_reason, "Web Push needs OpenSSL's libcrypto (Debian: libssl3): %s",
                 reason ? reason : "libcrypto.so.3 could not be loaded");
        sd_crypto.error = sd_crypto_reason;
        return;
    }
#define SD_CRYPTO_LOAD(field, name) \
    if (!(sd_crypto.field = (__typeof__(sd_crypto.field))dlsym(handle, #name))) { sd_crypto.error = "libcrypto.so.3 lacks " #name; return; }
    SD_CRYPTO_LOAD(q_keygen, EVP_PKEY_Q_keygen)
    SD_CRYPTO_LOAD(get_bn_param, EVP_PKEY_get_bn_param)
    SD_CRYPTO_LOAD(get_octet_param, EVP_PKEY_get_octet_string_param)
    SD_CRYPTO_LOAD(pkey_free, EVP_PKEY_free)
    SD_CRYPTO_LOAD(ctx_from_name, EVP_PKEY_CTX_new_from_name)
    SD_CRYPTO_LOAD(ctx_from_pkey, EVP_PKEY_CTX_new_from_pkey)
    SD_CRYPTO_LOAD(ctx_new_id, EVP_PKEY_CTX_new_id)
    SD_CRYPTO_LOAD(ctx_free, EVP_PKEY_CTX_free)
    SD_CRYPTO_LOAD(fromdata_init, EVP_PKEY_fromdata_init)
    SD_CRYPTO_LOAD(fromdata, EVP_PKEY_fromdata)
    SD_CRYPTO_LOAD(derive_init, EVP_PKEY_derive_init)
    SD_CRYPTO_LOAD(derive_set_peer, EVP_PKEY_derive_set_peer)
    SD_CRYPTO_LOAD(derive, EVP_PKEY_derive)
    SD_CRYPTO_LOAD(hkdf_md, EVP_PKEY_CTX_set_hkdf_md)
    SD_CRYPTO_LOAD(hkdf_salt, EVP_PKEY_CTX_set1_hkdf_salt)
    SD_CRYPTO_LOAD(hkdf_key, EVP_PKEY_CTX_set1_hkdf_key)
    SD_CRYPTO_LOAD(hkdf_info, EVP_PKEY_CTX_add1_hkdf_info)
    SD_CRYPTO_LOAD(sha256, EVP_sha256)
    SD_CRYPTO_LOAD(md_new, EVP_MD_CTX_new)
    SD_CRYPTO_LOAD(md_free, EVP_MD_CTX_free)
    SD_CRYPTO_LOAD(sign_init, EVP_DigestSignInit)
    SD_CRYPTO_LOAD(sign, EVP_DigestSign)
    SD_CRYPTO_LOAD(d2i_sig, d2i_ECDSA_SIG)
    SD_CRYPTO_LOAD(sig_get0, ECDSA_SIG_get0)
    SD_CRYPTO_LOAD(sig_free, ECDSA_SIG_free)
    SD_CRYPTO_LOAD(bin2bn, BN_bin2bn)
    SD_CRYPTO_LOAD(bn2binpad, BN_bn2binpad)
    SD_CRYPTO_LOAD(bn_free, BN_clear_free)
    SD_CRYPTO_LOAD(bld_new, OSSL_PARAM_BLD_new)
    SD_CRYPTO_LOAD(bld_utf8, OSSL_PARAM_BLD_push_utf8_string)
    SD_CRYPTO_LOAD(bld_bn, OSSL_PARAM_BLD_push_BN)
    SD_CRYPTO_LOAD(bld_octets, OSSL_PARAM_BLD_push_octet_string)
    SD_CRYPTO_LOAD(bld_to_param, OSSL_PARAM_BLD_to_param)
    SD_CRYPTO_LOAD(bld_free, OSSL_PARAM_BLD_free)
    SD_CRYPTO_LOAD(param_free, OSSL_PARAM_free)
    SD_CRYPTO_LOAD(cipher_new, EVP_CIPHER_CTX_new)
    SD_CRYPTO_LOAD(cipher_free, EVP_CIPHER_CTX_free)
    SD_CRYPTO_LOAD(aes128gcm, EVP_aes_128_gcm)
    SD_CRYPTO_LOAD(encrypt_init, EVP_EncryptInit_ex)
    SD_CRYPTO_LOAD(encrypt_update, EVP_EncryptUpdate)
    SD_CRYPTO_LOAD(encrypt_final, EVP_EncryptFinal_ex)
    SD_CRYPTO_LOAD(cipher_ctrl, EVP_CIPHER_CTX_ctrl)
    SD_CRYPTO_LOAD(random, RAND_bytes)
#undef SD_CRYPTO_LOAD
}

int sd_crypto_load(const char **error) {
    pthread_once(&sd_crypto_once, sd_crypto_open);
    if (sd_crypto.error) {
        *error = sd_crypto.error;
        return -1;
    }
    return 0;
}

static int sd_ready(void) {
    const char *error;
    return sd_crypto_load(&error) == 0;
}

// A P-256 key from its parts: the public point alone, or with the private scalar.
static EVP_PKEY *sd_p256_key(const uint8_t *private_key, const uint8_t public_key[65]) {
    EVP_PKEY *key = NULL;
    BIGNUM *scalar = private_key ? sd_crypto.bin2bn(private_key, 32, NULL) : NULL;
    OSSL_PARAM_BLD *builder = sd_crypto.bld_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    if (!builder || (private_key && !scalar)) goto done;
    if (!sd_crypto.bld_utf8(builder, OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0)) goto done;
    if (!sd_crypto.bld_octets(builder, OSSL_PKEY_PARAM_PUB_KEY, public_key, 65)) goto done;
    if (scalar && !sd_crypto.bld_bn(builder, OSSL_PKEY_PARAM_PRIV_KEY, scalar)) goto done;
    if (!(params = sd_crypto.bld_to_param(builder))) goto done;
    if (!(ctx = sd_crypto.ctx_from_name(NULL, "EC", NULL))) goto done;
    if (sd_crypto.fromdata_init(ctx) <= 0) goto done;
    if (sd_crypto.fromdata(ctx, &key, scalar ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0) key = NULL;
done:
    if (ctx) sd_crypto.ctx_free(ctx);
    if (params) sd_crypto.param_free(params);
    if (builder) sd_crypto.bld_free(builder);
    if (scalar) sd_crypto.bn_free(scalar);
    return key;
}

int sd_p256_generate(uint8_t private_key[32], uint8_t public_key[65]) {
    if (!sd_ready()) return -1;
    EVP_PKEY *key = sd_crypto.q_keygen(NULL, NULL, "EC", "P-256");
    if (!key) return -1;
    int result = -1;
    BIGNUM *scalar = NULL;
    size_t length = 0;
    if (sd_crypto.get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) && sd_crypto.bn2binpad(scalar, private_key, 32) == 32
        && sd_crypto.get_octet_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, public_key, 65, &length) && length == 65 && public_key[0] == 4) {
        result = 0;
    }
    if (scalar) sd_crypto.bn_free(scalar);
    sd_crypto.pkey_free(key);
    return result;
}

int sd_p256_ecdh(const uint8_t private_key[32], const uint8_t public_key[65], const uint8_t peer[65], uint8_t secret[32]) {
    if (!sd_ready() || peer[0] != 4) return -1;
    EVP_PKEY *ours = sd_p256_key(private_key, public_key), *theirs = sd_p256_key(NULL, peer);
    EVP_PKEY_CTX *ctx = ours ? sd_crypto.ctx_from_pkey(NULL, ours, NULL) : NULL;
    size_t length = 32;
    int result = -1;
    if (ctx && theirs && sd_crypto.derive_init(ctx) > 0 && sd_crypto.derive_set_peer(ctx, theirs) > 0
        && sd_crypto.derive(ctx, secret, &length) > 0 && length == 32) {
        result = 0;
    }
    if (ctx) sd_crypto.ctx_free(ctx);
    if (ours) sd_crypto.pkey_free(ours);
    if (theirs) sd_crypto.pkey_free(theirs);
    return result;
}

int sd_p256_sign(const uint8_t private_key[32], const uint8_t public_key[65], const uint8_t *message, size_t length, uint8_t signature[64]) {
    if (!sd_ready()) return -1;
    EVP_PKEY *key = sd_p256_key(private_key, public_key);
    EVP_MD_CTX *md = key ? sd_crypto.md_new() : NULL;
    unsigned char der[80];
    size_t der_length = sizeof der;
    int result = -1;
    if (md && sd_crypto.sign_init(md, NULL, sd_crypto.sha256(), NULL, key) > 0 && sd_crypto.sign(md, der, &der_length, message, length) > 0) {
        const unsigned char *cursor = der;
        ECDSA_SIG *parsed = sd_crypto.d2i_sig(NULL, &cursor, (long)der_length);
        if (parsed) {
            const BIGNUM *r = NULL, *s = NULL;
            sd_crypto.sig_get0(parsed, &r, &s);
            if (sd_crypto.bn2binpad(r, signature, 32) == 32 && sd_crypto.bn2binpad(s, signature + 32, 32) == 32) result = 0;
            sd_crypto.sig_free(parsed);
        }
    }
    if (md) sd_crypto.md_free(md);
    if (key) sd_crypto.pkey_free(key);
    return result;
}

int sd_hkdf_sha256(const uint8_t *salt, size_t salt_length, const uint8_t *ikm, size_t ikm_length, const uint8_t *info, size_t info_length,
                   uint8_t *out, size_t length) {
    if (!sd_ready()) return -1;
    EVP_PKEY_CTX *ctx = sd_crypto.ctx_new_id(EVP_PKEY_HKDF, NULL);
    size_t produced = length;
    int result = -1;
    if (ctx && sd_crypto.derive_init(ctx) > 0 && sd_crypto.hkdf_md(ctx, sd_crypto.sha256()) > 0
        && sd_crypto.hkdf_salt(ctx, salt, (int)salt_length) > 0 && sd_crypto.hkdf_key(ctx, ikm, (int)ikm_length) > 0
        && sd_crypto.hkdf_info(ctx, info, (int)info_length) > 0 && sd_crypto.derive(ctx, out, &produced) > 0 && produced == length) {
        result = 0;
    }
    if (ctx) sd_crypto.ctx_free(ctx);
    return result;
}

int sd_aes128gcm_seal(const uint8_t key[16], const uint8_t nonce[12], const uint8_t *plaintext, size_t length, uint8_t *out) {
    if (!sd_ready() || length > 0x7fffffff) return -1;
    EVP_CIPHER_CTX *ctx = sd_crypto.cipher_new();
    int written = 0, tail = 0, result = -1;
    if (ctx && sd_crypto.encrypt_init(ctx, sd_crypto.aes128gcm(), NULL, key, nonce) > 0
        && sd_crypto.encrypt_update(ctx, out, &written, plaintext, (int)length) > 0
        && sd_crypto.encrypt_final(ctx, out + written, &tail) > 0 && (size_t)(written + tail) == length
        && sd_crypto.cipher_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, out + length) > 0) {
        result = 0;
    }
    if (ctx) sd_crypto.cipher_free(ctx);
    return result;
}

int sd_crypto_random(uint8_t *out, size_t length) {
    if (!sd_ready() || length > 0x7fffffff) return -1;
    return sd_crypto.random(out, (int)length) == 1 ? 0 : -1;
}
