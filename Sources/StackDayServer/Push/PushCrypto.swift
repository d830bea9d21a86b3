import CCrypto

/// The primitives Web Push is made of, from OpenSSL's libcrypto (opened on first use): P-256
/// keys, ECDH, ES256 signatures, HKDF-SHA256, AES-128-GCM and random bytes. Each throws
/// `PushCryptoError` when libcrypto is missing or refuses its input.
enum PushCrypto {
    /// Throws when libcrypto cannot be opened, naming the Debian package.
    static func load() throws(PushCryptoError) {
        var error: UnsafePointer<CChar>?
        guard sd_crypto_load(&error) == 0 else { throw .unavailable(error.map { String(cString: $0) } ?? "libcrypto.so.3 could not be loaded") }
    }

    /// A new P-256 key pair: the private scalar (32 bytes) and the uncompressed public point (65).
    static func generateKey() throws(PushCryptoError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
        try load()
        var privateKey = [UInt8](repeating: 0, count: 32), publicKey = [UInt8](repeating: 0, count: 65)
        guard sd_p256_generate(&privateKey, &publicKey) == 0 else { throw .failed("a P-256 key could not be made") }
        return (privateKey, publicKey)
    }

    /// The ECDH secret of our key pair and a peer's uncompressed public point.
    static func sharedSecret(privateKey: [UInt8], publicKey: [UInt8], peer: [UInt8]) throws(PushCryptoError) -> [UInt8] {
        try load()
        guard privateKey.count == 32, publicKey.count == 65, peer.count == 65 else { throw .failed("a P-256 key has the wrong length") }
        var secret = [UInt8](repeating: 0, count: 32)
        guard sd_p256_ecdh(privateKey, publicKey, peer, &secret) == 0 else { throw .failed("the subscription's key is not a point on P-256") }
        return secret
    }

    /// An ES256 signature of `message` (r || s, 64 bytes).
    static func sign(_ message: [UInt8], privateKey: [UInt8], publicKey: [UInt8]) throws(PushCryptoError) -> [UInt8] {
        try load()
        var signature = [UInt8](repeating: 0, count: 64)
        guard privateKey.count == 32, publicKey.count == 65, sd_p256_sign(privateKey, publicKey, message, message.count, &signature) == 0 else {
            throw .failed("the server's push key could not sign")
        }
        return signature
    }

    /// HKDF-SHA256 (RFC 5869).
    static func hkdf(salt: [UInt8], key: [UInt8], info: [UInt8], length: Int) throws(PushCryptoError) -> [UInt8] {
        try load()
        var out = [UInt8](repeating: 0, count: length)
        guard sd_hkdf_sha256(salt, salt.count, key, key.count, info, info.count, &out, length) == 0 else { throw .failed("HKDF failed") }
        return out
    }

    /// AES-128-GCM: the ciphertext followed by its 16-byte tag.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(PushCryptoError) -> [UInt8] {
        try load()
        guard key.count == 16, nonce.count == 12 else { throw .failed("AES-128-GCM needs a 16-byte key and a 12-byte nonce") }
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        guard sd_aes128gcm_seal(key, nonce, plaintext, plaintext.count, &out) == 0 else { throw .failed("AES-128-GCM failed") }
        return out
    }

    static func random(_ count: Int) throws(PushCryptoError) -> [UInt8] {
        try load()
        var out = [UInt8](repeating: 0, count: count)
        guard sd_crypto_random(&out, count) == 0 else { throw .failed("no random bytes") }
        return out
    }
}
