import StackDay

/// A record or skip this device pushed that the server did not keep, and why (`code`, e.g.
/// `habit_deleted`): the habit (by name, as this device knew it) and the day. The same value a
/// server keeps for its settings page (`SyncDecided`).
public typealias SyncRefused = SyncDecided.Refused
