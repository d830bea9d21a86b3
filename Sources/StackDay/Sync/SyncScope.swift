/// Whose entries of a change log a read takes.
public enum SyncScope: Sendable {
    /// Those the device made: what it pushes.
    case own
    /// Those it did not: what a server answers it.
    case others
    /// Every entry: what a device pushes to a server whose epoch is new to it.
    case all
}
