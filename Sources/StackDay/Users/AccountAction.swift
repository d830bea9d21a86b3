/// What only the account itself may do: its own token, or a browser signed in to it. A paired
/// device's token syncs, reads and writes the user's habits and records, and none of these
/// (`DeviceRights`), so that a lost phone is a lost phone and not a lost account.
public enum AccountAction: String, Sendable, CaseIterable {
    case pairDevice = "make pairing codes"
    case revokeDevice = "revoke devices"
    case changePassword = "change the password"
    case changeSettings = "change settings"
    case manageWebhooks = "manage webhooks"
    case manageFeeds = "manage calendar feeds"
    case managePolicies = "install, share or remove policies"
}
