/// The server's VAPID key pair (RFC 8292, P-256): made on the first start that needs it and kept
/// in the store, so that subscriptions made with its public key stay valid across restarts and
/// across servers sharing the store.
public struct PushServerKey: Sendable, Equatable {
    /// The private scalar, 32 bytes.
    public let privateKey: [UInt8]
    /// The uncompressed public point, 65 bytes.
    public let publicKey: [UInt8]

    public init(privateKey: [UInt8], publicKey: [UInt8]) {
        self.privateKey = privateKey
        self.publicKey = publicKey
    }
}
