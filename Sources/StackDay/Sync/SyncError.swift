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
    /// A push under a device id that the server has seen push other changes at the same positions
    /// of its log: this store is a copy of another (a restored backup, a copied file) syncing under
    /// the same id. The client takes a new id by itself and pushes everything again.
    case deviceCopied(device: String)

    public var description: String {
        switch self {
        case .invalidChange(let index, let reason): "change \(index) \(reason)"
        case .invalidRequest(let reason): "the sync request \(reason)"
        case .invalidAnswer(let reason): "the server's sync answer \(reason)"
        case .refused(let status, let code, let message): "the server refused the sync (\(status) \(code)): \(message)"
        case .unreachable(let reason): "cannot reach the sync server: \(reason)"
        case .tlsFailed(let reason): "TLS with the sync server failed: \(reason)"
        case .unsupportedStore: "this store keeps no change log to sync"
        case .deviceCopied(let device):
            "device \(device) pushed other changes at the same places of its log before: this store is a copy of another (a restored backup or a copied file) syncing under the same id, and takes an id of its own"
        }
    }
}
