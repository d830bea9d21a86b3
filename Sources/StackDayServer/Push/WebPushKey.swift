/// The server's VAPID key pair (P-256): made on first start and kept in the store, so every
/// subscription made with its public key stays valid across restarts.
struct WebPushKey: Sendable, Equatable {
    /// The private scalar, 32 bytes.
    let privateKey: [UInt8]
    /// The uncompressed public point, 65 bytes.
    let publicKey: [UInt8]

    /// The public key as browsers take it (`applicationServerKey`): base64url.
    var publicKeyText: String { Base64URL.encode(publicKey) }

    static func generate() throws(PushCryptoError) -> WebPushKey {
        let (privateKey, publicKey) = try PushCrypto.generateKey()
        return WebPushKey(privateKey: privateKey, publicKey: publicKey)
    }
}
