/// Where a device stands with one server: its own log pushed through `pushedThrough`, the
/// server's pulled through `position`, and the history token the server gave it last
/// (`SyncHistory`; nil until it gives one). Stored in the transaction that moves it.
public struct SyncPeer: Sendable, Equatable {
    public var pushedThrough: Int64
    public var position: Int64
    public var history: String?

    public init(pushedThrough: Int64 = 0, position: Int64 = 0, history: String? = nil) {
        self.pushedThrough = pushedThrough
        self.position = position
        self.history = history
    }
}
