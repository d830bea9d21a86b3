/// A habit this device held that a sync renamed on the server's word: the server settling two
/// habits of one name (`water` → `water (2)`), or a rename made on the server itself (the web app).
public struct SyncRename: Sendable, Equatable {
    public let from: String
    public let to: String

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}
