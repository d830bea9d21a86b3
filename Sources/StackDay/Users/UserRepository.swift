import Foundation

/// The users of a store. Not scoped to an owner: the same in every store `scoped(to:)` gives.
public protocol UserRepository: AnyObject {
    /// Throws `UseCaseError.userExists` for a taken name.
    func insert(_ user: User) throws
    /// Replaces the stored user of the same name; throws `UseCaseError.userNotFound`.
    func update(_ user: User) throws
    /// Removes the user's row (its data is removed by `RemoveUser`); false when there was none.
    func delete(named name: String) throws -> Bool
    func user(named name: String) throws -> User?
    /// The user whose token hashes to `sha256`.
    func user(tokenSHA256 sha256: String) throws -> User?
    /// The user whose calendar feed has this token.
    func user(feedToken: String) throws -> User?
    /// Every user, by name.
    func all() throws -> [User]

    /// Keeps a browser session (`UserSession`); its user must exist.
    func insertSession(_ session: UserSession) throws
    /// The session whose id hashes to `idSHA256`, expired or not.
    func session(idSHA256: String) throws -> UserSession?
    /// Ends one session; false when there was none.
    func deleteSession(idSHA256: String) throws -> Bool
    /// Ends every session of `user` (a new token, a removed user); returns how many ended.
    func deleteSessions(of user: String) throws -> Int
    /// How many sessions are open at `now` (not expired).
    func sessionCount(at now: Date) throws -> Int

    /// Keeps a pairing code (`PairingCode`); its user must exist.
    func insertPairing(_ pairing: PairingCode) throws
    /// Removes and answers the pairing whose code hashes to `codeSHA256`, expired or not (a code
    /// is taken once); nil when there is none.
    func takePairing(codeSHA256: String) throws -> PairingCode?
    /// Removes every pairing that expired at or before `now`.
    func deletePairings(expiredAt now: Date) throws
    /// How many pairing codes of `user` are kept (made, not yet taken or removed).
    func pairingCount(of user: String) throws -> Int
    /// Keeps a connected device; its user must exist.
    func insertDevice(_ device: UserDevice) throws
    /// A user's devices, the latest connected first.
    func devices(of user: String) throws -> [UserDevice]
    /// The device whose token hashes to `sha256`.
    func device(tokenSHA256 sha256: String) throws -> UserDevice?
    /// Ends a device's token and the browser sessions opened for it; false when there was none.
    func deleteDevice(id: UUID) throws -> Bool
    /// Notes that a device was seen at `at`.
    func touchDevice(id: UUID, at: Date) throws
    /// Keeps that `device` was revoked at `at`, by its token's hash.
    func keepRevoked(_ device: UserDevice, at: Date) throws
    /// The revoked device whose token hashes to `sha256`, if one was.
    func revokedDevice(tokenSHA256 sha256: String) throws -> RevokedDevice?
}
