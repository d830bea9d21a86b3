/// Where a device stands with one server: its own log pushed through `pushedThrough`, the
/// server's pulled through `position`. Stored in the transaction that moves it.
public struct SyncPeer: Sendable, Equatable {
    public var pushedThrough: Int64
    public var position: Int64

    public init(pushedThrough: Int64 = 0, position: Int64 = 0) {
        self.pushedThrough = pushedThrough
        self.position = position
    }
}
