/// Why a sync failed. A server answers the request's changes with `invalidChange` before it
/// writes any; a client reports the server's refusal or the transport's failure as it is.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidChange(index: Int, reason: String)
    case invalidRequest(String)
    case invalidAnswer(String)
    /// The server answered with an error (`status`, its `code` and `message`).
    case refused(status: Int, code: String, message: String)
    case unreachable(String)
    case unsupportedStore

    public var description: String {
        switch self {
        case .invalidChange(let index, let reason): "change \(index) \(reason)"
        case .invalidRequest(let reason): "the sync request \(reason)"
        case .invalidAnswer(let reason): "the server's sync answer \(reason)"
        case .refused(let status, let code, let message): "the server refused the sync (\(status) \(code)): \(message)"
        case .unreachable(let reason): "cannot reach the sync server: \(reason)"
        case .unsupportedStore: "this store keeps no change log to sync"
        }
    }
}
