import Foundation

/// Opens, finds and ends browser sessions. A session's cookie value is a random id of its own
/// (`ss_` and 64 hex digits); only its SHA-256 is stored, beside the user and a CSRF token.
public struct ManageSessions {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// A session for the user `token` belongs to, lasting `lifetime` seconds of elapsed time;
    /// nil for an unknown token. Returns the cookie value (shown only now) and the session.
    public func open(token: String, lifetime: TimeInterval) throws -> (cookie: String, session: UserSession, user: User)? {
        let id = Self.randomHex(prefix: "ss_")
        let now = context.clock.now
        return try context.store.write { tx in
            guard let user = try tx.users.user(tokenSHA256: UserToken.sha256(of: token)) else { return nil }
            let session = UserSession(idSHA256: UserToken.sha256(of: id), user: user.name, csrfToken: Self.randomHex(prefix: ""),
                                      createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
            try tx.users.insertSession(session)
            return (id, session, user)
        }
    }

    /// A session for `name` when `password` is its password; nil for an unknown name, a user with no
    /// password, or a wrong one (the same answer for each, so a failure tells nothing about who
    /// exists; a hash is checked even for an unknown name, so the time does not tell either).
    public func open(name: String, password: String, lifetime: TimeInterval, hasher: any PasswordHasher) throws -> (cookie: String, session: UserSession, user: User)? {
        let user = try context.store.read { try $0.users.user(named: name) }
        guard let user, let hash = user.passwordHash else {
            _ = hasher.verify(password, against: hasher.decoyHash)
            return nil
        }
        guard hasher.verify(password, against: hash) else { return nil }
        let id = Self.randomHex(prefix: "ss_")
        let now = context.clock.now
        return try context.store.write { tx in
            let session = UserSession(idSHA256: UserToken.sha256(of: id), user: user.name, csrfToken: Self.randomHex(prefix: ""),
                                      createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
            try tx.users.insertSession(session)
            return (id, session, user)
        }
    }

    /// A session for the user a pairing code was made for: the code is used up and a device named
    /// `device` is connected, and revoking that device ends the session. Throws what
    /// `ManageDevices.pair` throws.
    public func open(pairingCode code: String, device: String, lifetime: TimeInterval) throws -> (cookie: String, session: UserSession, user: User) {
        let paired = try ManageDevices(context: context).pair(code: code, name: device)
        let id = Self.randomHex(prefix: "ss_")
        let now = context.clock.now
        return try context.store.write { tx in
            guard let user = try tx.users.user(named: paired.device.user) else { throw UseCaseError.pairingFailed }
            let session = UserSession(idSHA256: UserToken.sha256(of: id), user: user.name, csrfToken: Self.randomHex(prefix: ""),
                                      createdAt: now, expiresAt: now.addingTimeInterval(lifetime), deviceID: paired.device.id)
            try tx.users.insertSession(session)
            return (id, session, user)
        }
    }

    /// The user and session of a cookie value, while it has not expired (an expired one is removed).
    public func find(_ cookie: String) throws -> (user: User, session: UserSession)? {
        guard Self.isWellFormed(cookie) else { return nil }
        let sha256 = UserToken.sha256(of: cookie)
        guard let session = try context.store.read({ try $0.users.session(idSHA256: sha256) }) else { return nil }
        guard session.expiresAt > context.clock.now else {
            _ = try context.store.write { try $0.users.deleteSession(idSHA256: sha256) }
            return nil
        }
        guard let user = try context.store.read({ try $0.users.user(named: session.user) }) else { return nil }
        return (user, session)
    }

    /// Ends the session of a cookie value (signing out); false when there was none.
    @discardableResult
    public func end(_ cookie: String) throws -> Bool {
        guard Self.isWellFormed(cookie) else { return false }
        return try context.store.write { try $0.users.deleteSession(idSHA256: UserToken.sha256(of: cookie)) }
    }

    /// `ss_` and 64 lowercase hex digits.
    public static func isWellFormed(_ text: String) -> Bool { isRandomHex(text, prefix: "ss_") }

    /// `prefix` and 64 lowercase hex digits: the shape of a token (`sd_`) or a session id (`ss_`).
    public static func isRandomHex(_ text: String, prefix: String) -> Bool {
        text.utf8.count == prefix.utf8.count + 64 && text.hasPrefix(prefix)
            && text.utf8.dropFirst(prefix.utf8.count).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// 256 bits of system randomness as 64 hex digits after `prefix`.
    static func randomHex(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes = Array(prefix.utf8)
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int((word >> UInt64(shift)) & 15)]) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
