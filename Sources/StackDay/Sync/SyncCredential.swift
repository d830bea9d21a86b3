/// What a pairing gave a device for one server, kept in the device's store: its own token, and
/// the certificate authorities (PEM text) it trusted the server by, besides the system's, when
/// it was paired with `--cacert` (the certificates themselves, so that moving or deleting the
/// file changes nothing).
public struct SyncCredential: Hashable, Sendable {
    public var token: String
    public var authorities: String?

    public init(token: String, authorities: String? = nil) {
        self.token = token
        self.authorities = authorities
    }
}
