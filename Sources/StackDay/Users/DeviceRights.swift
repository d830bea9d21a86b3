import Foundation

/// Who may do what: the one place that decides whether a paired device's token may take an
/// `AccountAction`. A device may revoke itself (`target` is its own id) and nothing else of them.
public enum DeviceRights {
    /// Whether `device` (nil: the account's own token or session) may take `action` on `target`
    /// (a device id, for `.revokeDevice`).
    public static func allows(_ action: AccountAction, by device: UUID?, target: String? = nil) -> Bool {
        guard let device else { return true }
        if action == .revokeDevice, let target, UUID(uuidString: target) == device { return true }
        return false
    }
}
