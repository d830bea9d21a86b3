/// What a server knows of one device's history of pushes, to tell a copy of a store (a restored
/// backup, a copied file: two histories under one device id) from the device itself.
///
/// Each push of changes gives the device a new random token (`current`), which it sends with its
/// next request; a device always holds the last one it was given. A request with an older token
/// comes from a copy that went its own way since, and is refused (`SyncError.deviceCopied`), with
/// one exception: the token before `current`, on a push whose first change is the one the push
/// that replaced it began with, is that push sent again after its answer was lost. A request with
/// no token is a device starting over with this server (a new token, a new address), and is taken.
public struct SyncHistory: Sendable, Equatable {
    public var current: String
    public var previous: String?
    /// The first change of the push that was given `current` (`fingerprint`).
    public var previousFirst: String?
    /// The device moved to a new id (`stackday sync --new-device` on a copy): its id is refused from now on.
    public var retired: Bool

    public init(current: String, previous: String? = nil, previousFirst: String? = nil, retired: Bool = false) {
        self.current = current
        self.previous = previous
        self.previousFirst = previousFirst
        self.retired = retired
    }

    /// A change as a push's first: its kind, key and stamp.
    public static func fingerprint(_ change: SyncChange) -> String {
        "\(change.kind.rawValue)/\(change.key)/\(change.stamp.hlc)/\(change.stamp.device)"
    }

    /// What a server does with a request presenting `token` (nil: none) from a device whose held
    /// history is `held` (nil: never seen), pushing changes the first of which is `first` (nil: a
    /// pull): the history to keep (nil: as held) and the token to answer; or `deviceCopied`.
    public static func judge(_ held: SyncHistory?, device: String, token: String?, first: String?,
                             makeToken: () -> String) throws(SyncError) -> (keep: SyncHistory?, answer: String) {
        func given(after previous: String?) -> (keep: SyncHistory?, answer: String) {
            let next = SyncHistory(current: makeToken(), previous: previous, previousFirst: first)
            return (next, next.current)
        }
        guard let held else { return given(after: nil) }
        if held.retired { throw .deviceCopied(device: device, retired: true) }
        switch token {
        case nil: return given(after: held.current)
        case held.current?: return first == nil ? (nil, held.current) : given(after: held.current)
        case held.previous? where first != nil && first == held.previousFirst: return (nil, held.current)
        default: throw .deviceCopied(device: device, retired: false)
        }
    }
}
