import StackDay

extension PushServerKey {
    /// The public key as browsers take it (`applicationServerKey`, `GET /v1/push/key`): base64url.
    var publicKeyText: String { Base64URL.encode(publicKey) }

    /// A new key pair, from libcrypto.
    static func generate() throws(PushCryptoError) -> PushServerKey {
        let (privateKey, publicKey) = try PushCrypto.generateKey()
        return PushServerKey(privateKey: privateKey, publicKey: publicKey)
    }
}
