/// Why the engine could not take a request.
public enum EngineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `stop()` was called (or the engine went away) before the request was made.
    case stopped
    /// A call scoped to an owner whose data this engine's store does not hold.
    case unknownOwner(String)

    public var description: String {
        switch self {
        case .stopped: "the engine has stopped and takes no more requests"
        case .unknownOwner(let owner): "no owner '\(owner)' in this store"
        }
    }
}
