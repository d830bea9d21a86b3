/// One thing a user's holdings are counted by, with the limit every user has unless the server
/// (`serve --limit`) or the user's own limits (`stackday user limits`) say otherwise. The raw
/// value is the name options, the CLI and the store use.
public enum UserLimit: String, CaseIterable, Sendable {
    /// Installed scripts (each version of an installed script counts).
    case scripts
    /// The installed scripts' sources' bytes together.
    case scriptBytes = "script-bytes"
    case habits
    /// Groups of habits.
    case groups
    case webhooks
    /// Paired devices.
    case devices
    /// Pairing codes made and not yet used or expired.
    case pairingCodes = "pairing-codes"
    /// Records of one habit on one day.
    case recordsPerDay = "records-per-day"
    /// Changes a sync answer sends at most (a page; the device asks for the next). At most
    /// `SyncRequest.maxChanges` whatever is set.
    case syncPage = "sync-page"

    /// The limit when nothing else is set.
    public var standard: Int {
        switch self {
        case .scripts: 200
        case .scriptBytes: 8 << 20
        case .habits: 1_000
        case .groups: 100
        case .webhooks: 20
        case .devices: 50
        case .pairingCodes: 5
        case .recordsPerDay: 500
        case .syncPage: SyncRequest.maxChanges
        }
    }

    /// What an answer over the limit names, in a sentence ("over the limit of …").
    public var phrase: String {
        switch self {
        case .scripts: "installed scripts"
        case .scriptBytes: "bytes of installed scripts"
        case .habits: "habits"
        case .groups: "groups"
        case .webhooks: "webhooks"
        case .devices: "paired devices"
        case .pairingCodes: "open pairing codes"
        case .recordsPerDay: "records of one habit on one day"
        case .syncPage: "changes in one sync answer"
        }
    }
}
