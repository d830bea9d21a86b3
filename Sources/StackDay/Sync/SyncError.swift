/// Why a sync failed. A server answers the request's changes with `invalidChange` before it
/// writes any; a client reports the server's refusal or the transport's failure as it is.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidChange(index: Int, reason: String)
    case invalidRequest(String)
    case invalidAnswer(String)
    /// The server answered with an error (`status`, its `code` and `message`).
    case refused(status: Int, code: String, message: String)
    case unreachable(String)
    /// The TLS handshake with an `https://` server failed: its certificate is not trusted (an
    /// unknown issuer, another host's name, expired) or no common protocol version was found.
    /// Nothing was sent, the token included.
    case tlsFailed(String)
    case unsupportedStore
    /// A request under a device id whose history on the server is not this store's: a copy of a
    /// store (a restored backup, a copied file) syncing under the id of the one it was copied from,
    /// or (`retired`) under an id a copy already moved away from.
    case deviceCopied(device: String, retired: Bool)

    public var description: String {
        switch self {
        case .invalidChange(let index, let reason): "change \(index) \(reason)"
        case .invalidRequest(let reason): "the sync request \(reason)"
        case .invalidAnswer(let reason): "the server's sync answer \(reason)"
        case .refused(let status, let code, let message): "the server refused the sync (\(status) \(code)): \(message)"
        case .unreachable(let reason): "cannot reach the sync server: \(reason)"
        case .tlsFailed(let reason): "TLS with the sync server failed: \(reason)"
        case .unsupportedStore: "this store keeps no change log to sync"
        case .deviceCopied(let device, let retired):
            retired
                ? "device \(device) was moved to a new id by a copy of this store; run `stackday sync --new-device` here too"
                : "device \(device)'s history on the server is not this store's: this store is a copy of another (a restored backup or a copied file) syncing under the same id; run `stackday sync --new-device` on it (it takes a new id and pushes everything again)"
        }
    }
}
