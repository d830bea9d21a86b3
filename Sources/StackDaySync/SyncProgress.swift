/// How far a sync has got, as `SyncClient.sync(progress:)` reports it after each page.
public struct SyncProgress: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Sending the device's changes: `total` is how many there were when the sync began.
        case pushing
        /// Taking the server's changes: the server does not say how many wait, so no `total`.
        case pulling
    }

    public let phase: Phase
    public let done: Int
    public let total: Int?

    public init(phase: Phase, done: Int, total: Int?) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}
