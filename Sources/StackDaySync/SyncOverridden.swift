import StackDay

/// A change this device made to a habit's field that lost to a later one made elsewhere: the
/// habit (by its name now), the field, the value this device had set and the value kept. The same
/// value a server keeps for its settings page (`SyncDecided`).
public typealias SyncOverridden = SyncDecided.Overridden
