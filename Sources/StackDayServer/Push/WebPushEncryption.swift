/// A push message's body, encrypted for one subscription as RFC 8291 says, in the `aes128gcm`
/// content coding of RFC 8188 (one record): a fresh P-256 key pair and salt per message, the
/// ECDH secret with the subscription's `p256dh` mixed with its `auth` secret by HKDF into the
/// content key and nonce. Only the browser holding the subscription's private key can read it.
enum WebPushEncryption {
    /// The record size written in the header: one record holds up to this many bytes of
    /// ciphertext with its tag.
    static let recordSize = 4096

    /// The most bytes a payload may have (one record: the delimiter and the tag take 17).
    static let payloadLimit = recordSize - 17

    /// `payload` encrypted for the subscription (`subscriber`: its `p256dh` point, 65 bytes;
    /// `auth`: its 16-byte secret). `sender` and `salt` are fresh unless given (a test of the
    /// RFC's example gives them).
    static func encrypt(_ payload: [UInt8], subscriber: [UInt8], auth: [UInt8],
                        sender: (privateKey: [UInt8], publicKey: [UInt8])? = nil, salt: [UInt8]? = nil) throws(PushCryptoError) -> [UInt8] {
        guard payload.count <= payloadLimit else { throw .failed("the message is longer than \(payloadLimit) bytes") }
        guard subscriber.count == 65, subscriber.first == 4 else { throw .failed("the subscription's p256dh is not an uncompressed P-256 point") }
        guard auth.count == 16 else { throw .failed("the subscription's auth secret is not 16 bytes") }
        var keys = sender ?? ([], [])
        if sender == nil { keys = try PushCrypto.generateKey() }
        var salt = salt ?? []
        if salt.isEmpty { salt = try PushCrypto.random(16) }
        let secret = try PushCrypto.sharedSecret(privateKey: keys.privateKey, publicKey: keys.publicKey, peer: subscriber)
        // RFC 8291 §3.4: the input keying material binds both public keys and the auth secret.
        let keyInfo = Array("WebPush: info".utf8) + [0] + subscriber + keys.publicKey
        let material = try PushCrypto.hkdf(salt: auth, key: secret, info: keyInfo, length: 32)
        // RFC 8188 §2.2 and §2.3: the content key and nonce, from the salt in the header.
        let contentKey = try PushCrypto.hkdf(salt: salt, key: material, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = try PushCrypto.hkdf(salt: salt, key: material, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        // The last (only) record ends with the delimiter 2 and no padding.
        let sealed = try PushCrypto.seal(payload + [2], key: contentKey, nonce: nonce)
        let size = UInt32(recordSize)
        let header = salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xff), UInt8(size >> 8 & 0xff), UInt8(size & 0xff)]
            + [UInt8(keys.publicKey.count)] + keys.publicKey
        return header + sealed
    }
}
