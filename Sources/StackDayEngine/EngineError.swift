/// Why the engine could not take a request.
public enum EngineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `stop()` was called (or the engine went away) before the request was made.
    case stopped

    public var description: String {
        switch self {
        case .stopped: "the engine has stopped and takes no more requests"
        }
    }
}
