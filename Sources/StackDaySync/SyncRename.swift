import StackDay

/// A habit this device held that a sync renamed on the server's word: the server settling two
/// habits of one name (`water` → `water (2)`), or a rename made on the server itself (the web
/// app). The same value a server keeps for its settings page (`SyncDecided`).
public typealias SyncRename = SyncDecided.Renamed
