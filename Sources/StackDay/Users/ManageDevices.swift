import Foundation

/// Connects devices to a user by a one-time code, and lists and revokes them. A signed-in user
/// asks for a code (`startPairing`); a device sends it once, within ten minutes, with a name
/// (`pair`) and gets a bearer token of its own, which works like the user's until it is revoked.
public struct ManageDevices {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// A new code for `user`, shown as `ABCD-EFGH`, and when it stops working. Codes of the user
    /// that expired are removed; those still open count toward the user's `pairingCodes` limit.
    public func startPairing(user: String) throws -> (code: String, expiresAt: Date) {
        let code = PairingCode.random()
        let now = context.clock.now
        let expiresAt = now.addingTimeInterval(PairingCode.lifetime)
        try context.store.write { tx in
            guard try tx.users.user(named: user) != nil else { throw UseCaseError.userNotFound(name: user) }
            try tx.users.deletePairings(expiredAt: now)
            try context.limits(of: user, in: tx).check(.pairingCodes, holding: try tx.users.pairingCount(of: user) + 1)
            try tx.users.insertPairing(PairingCode(codeSHA256: PairingCode.sha256(of: code) ?? "", user: user, expiresAt: expiresAt))
        }
        return (code, expiresAt)
    }

    /// Exchanges a code for a device token (shown only now). The code is used up whether or not
    /// it had expired; throws `UseCaseError.pairingFailed` for a code that is unknown, used or
    /// expired (the same error for each), `.invalidDeviceName` for a bad name.
    public func pair(code typed: String, name: String) throws -> (token: UserToken, device: UserDevice) {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard Self.isValidName(name) else { throw UseCaseError.invalidDeviceName(name: name) }
        guard let sha256 = PairingCode.sha256(of: typed) else { throw UseCaseError.pairingFailed }
        let token = UserToken()
        let now = context.clock.now
        let device = try context.store.write { tx -> UserDevice in
            guard let pairing = try tx.users.takePairing(codeSHA256: sha256), pairing.expiresAt > now,
                  try tx.users.user(named: pairing.user) != nil else { throw UseCaseError.pairingFailed }
            try context.limits(of: pairing.user, in: tx).check(.devices, holding: try tx.users.devices(of: pairing.user).count + 1)
            let device = UserDevice(id: UUID(), user: pairing.user, name: name, tokenSHA256: token.sha256, createdAt: now, lastSeenAt: now)
            try tx.users.insertDevice(device)
            return device
        }
        return (token, device)
    }

    /// The user's devices, the latest connected first.
    public func devices(of user: String) throws -> [UserDevice] {
        try context.store.read { try $0.users.devices(of: user) }
    }

    /// Ends a device's token; throws `UseCaseError.deviceNotFound` for an id the user has no device under.
    public func revoke(_ id: UUID, of user: String) throws {
        try context.store.write { tx in
            guard let device = try tx.users.devices(of: user).first(where: { $0.id == id }), try tx.users.deleteDevice(id: id) else {
                throw UseCaseError.deviceNotFound(id: id.uuidString.lowercased())
            }
            try tx.users.keepRevoked(device, at: context.clock.now)
        }
    }

    /// The revoked device `token` belonged to, if it did (a token no one holds now).
    public static func revoked(deviceToken token: String, in store: any HabitStore) throws -> RevokedDevice? {
        try store.read { try $0.users.revokedDevice(tokenSHA256: UserToken.sha256(of: token)) }
    }

    /// The user and device of a device token in `store`, noting that it was seen at `now` (at
    /// most once in `seenResolution`, so that reads do not each write); nil for a token no device
    /// holds. Static: it runs before anyone is known, on the store's unscoped connection.
    public static func user(deviceToken token: String, in store: any HabitStore, at now: Date) throws -> (user: User, device: UserDevice)? {
        let sha256 = UserToken.sha256(of: token)
        guard let device = try store.read({ try $0.users.device(tokenSHA256: sha256) }),
              let user = try store.read({ try $0.users.user(named: device.user) }) else { return nil }
        if device.lastSeenAt.map({ now.timeIntervalSince($0) >= seenResolution }) ?? true {
            try store.write { try $0.users.touchDevice(id: device.id, at: now) }
        }
        return (user, device)
    }

    /// How often a device's last-seen time is written: every five minutes at most.
    public static let seenResolution: TimeInterval = 300

    /// 1 to 64 printable characters without leading or trailing spaces.
    public static func isValidName(_ name: String) -> Bool {
        name.count <= 64 && User.isValidName(name)
    }
}
