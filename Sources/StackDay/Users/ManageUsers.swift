import Foundation

/// Adds, re-keys, re-configures, lists and removes the users of a store, and finds the user a
/// bearer token belongs to.
public struct ManageUsers {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Adds `name` with a new token; returns the user and the token, which is shown only now.
    /// Throws `UseCaseError.userExists`, `.invalidUserName` or `.invalidTimeZone`.
    public func add(_ name: String, timeZone: String, dayStart: DayStart = .midnight) throws -> (user: User, token: UserToken) {
        let token = UserToken()
        let user = try User(name: name, tokenSHA256: token.sha256, timeZone: timeZone, dayStart: dayStart, createdAt: context.clock.now)
        try context.store.write { tx in try tx.users.insert(user) }
        return (user, token)
    }

    /// Gives `name` a new token; the old one stops working, and so does every browser session
    /// `name` opened. Throws `UseCaseError.userNotFound`.
    public func replaceToken(of name: String) throws -> UserToken {
        let token = UserToken()
        try context.store.write { tx in
            guard var user = try tx.users.user(named: name) else { throw UseCaseError.userNotFound(name: name) }
            user.tokenSHA256 = token.sha256
            try tx.users.update(user)
            _ = try tx.users.deleteSessions(of: name)
        }
        return token
    }

    /// The token of `name`'s calendar feed (`fd_` and 64 hex digits), made on first asking; with
    /// `rotate`, a new one, after which the old address answers 404. Throws `UseCaseError.userNotFound`.
    public func feedToken(of name: String, rotate: Bool = false) throws -> String {
        try context.store.write { tx in
            guard var user = try tx.users.user(named: name) else { throw UseCaseError.userNotFound(name: name) }
            if let kept = user.feedToken, !rotate { return kept }
            let token = ManageSessions.randomHex(prefix: "fd_")
            user.feedToken = token
            try tx.users.update(user)
            return token
        }
    }

    /// The user whose calendar feed has `token`; nil for any other text.
    public func user(feedToken token: String) throws -> User? {
        guard ManageSessions.isRandomHex(token, prefix: "fd_") else { return nil }
        return try context.store.read { try $0.users.user(feedToken: token) }
    }

    /// Sets `name`'s password (`PasswordRules`), hashed by `hasher`. A user who has one must give
    /// it as `old` (the command line, run by whoever holds the store, passes `verifyOld: false`).
    /// Other browser sessions of the user end. Throws `UseCaseError.userNotFound`,
    /// `.invalidPassword` or `.wrongPassword`.
    public func setPassword(of name: String, to password: String, old: String?, verifyOld: Bool = true, hasher: any PasswordHasher) throws {
        try PasswordRules.check(password)
        let hash = try hasher.hash(password)
        try context.store.write { tx in
            guard var user = try tx.users.user(named: name) else { throw UseCaseError.userNotFound(name: name) }
            if verifyOld, let current = user.passwordHash {
                guard let old, hasher.verify(old, against: current) else { throw UseCaseError.wrongPassword }
            }
            user.passwordHash = hash
            try tx.users.update(user)
        }
    }

    /// Sets the time zone and day start `name`'s days follow, and the language of its pages (nil:
    /// unchanged). Throws `UseCaseError.userNotFound`, `.invalidTimeZone` or `.invalidLanguage`.
    ///
    /// A new week start is a rule change like any other: each of the user's active habits whose
    /// schedule counts weeks gets a revision beginning its weeks on the new day, from the first day
    /// of such a week (`WeekStartRules`), in the same transaction; weeks already judged keep their
    /// figures. A script that counts weeks its own way is left as it is.
    public func configure(_ name: String, timeZone: String, dayStart: DayStart, language: String? = nil, weekStart: WeekStart? = nil) throws -> User {
        guard TimeZoneText.parse(timeZone) != nil else { throw UseCaseError.invalidTimeZone(text: timeZone) }
        if let language, !User.languages.contains(language) { throw UseCaseError.invalidLanguage(text: language) }
        let store = try context.store.scoped(to: name)
        return try store.write { tx in
            guard var user = try tx.users.user(named: name) else { throw UseCaseError.userNotFound(name: name) }
            user.timeZone = timeZone
            user.dayStart = dayStart
            if let language { user.language = language }
            if let weekStart, weekStart != user.weekStart {
                user.weekStart = weekStart
                let owner = HabitContext(store: store, clock: context.clock, boundary: user.boundary, policies: context.policies,
                                         usesEvaluationCache: context.usesEvaluationCache)
                _ = try WeekStartRules(context: owner).apply(weekStart, in: tx)
            }
            try tx.users.update(user)
            return user
        }
    }

    /// Sets `name`'s own limits: `set` laid over what the user had, then `cleared` taken off
    /// (back to the server's). Returns the user as stored. Throws `UseCaseError.userNotFound`.
    public func setLimits(of name: String, set: UserLimits, cleared: [UserLimit]) throws -> User {
        try context.store.write { tx in
            guard var user = try tx.users.user(named: name) else { throw UseCaseError.userNotFound(name: name) }
            user.limits = cleared.reduce(user.limits.overlaid(with: set)) { $0.clearing($1) }
            try tx.users.update(user)
            return user
        }
    }

    /// Every user, by name.
    public func list() throws -> [User] {
        try context.store.read { try $0.users.all() }
    }

    /// The user `token` belongs to, or nil (an unknown or replaced token).
    public func authenticate(_ token: String) throws -> User? {
        try context.store.read { try $0.users.user(tokenSHA256: UserToken.sha256(of: token)) }
    }

    /// The user `name`; throws `UseCaseError.userNotFound`.
    public func user(named name: String) throws -> User {
        guard let user = try context.store.read({ try $0.users.user(named: name) }) else { throw UseCaseError.userNotFound(name: name) }
        return user
    }

    /// Removes `name` and everything it owns (habits with their records, skips and revisions, its
    /// policy scripts and its sync log) in one transaction; returns how many habits and records went.
    /// Throws `UseCaseError.userNotFound`.
    public func remove(_ name: String) throws -> (habits: Int, completions: Int) {
        try context.store.scoped(to: name).write { tx in
            guard try tx.users.delete(named: name) else { throw UseCaseError.userNotFound(name: name) }
            var removed = (habits: 0, completions: 0)
            for habit in try tx.habits.all() {
                removed.completions += try tx.completions.deleteAll(habitID: habit.id)
                _ = try tx.skips.deleteAll(habitID: habit.id)
                try tx.habits.delete(id: habit.id)
                removed.habits += 1
            }
            try tx.scripts.deleteAll()
            // What it shared and what was offered to it go with it.
            try tx.offers?.removeAll(of: name)
            // The deletions above were logged as tombstones: the log goes too, so that a user
            // added again under this name never answers a device the old user's deletions.
            try tx.sync?.forget()
            return removed
        }
    }
}
