import Foundation

/// Where policy scripts are kept: immutable, one per SHA-256.
public protocol PolicyScriptRepository: AnyObject {
    /// Stores the script unless one with its hash is stored already (then keeps the stored one).
    func insert(_ script: PolicyScript) throws
    /// The script with this hash. Throws `PolicyScriptError.tampered` when its stored source no
    /// longer hashes to it.
    func script(sha256: String) throws -> PolicyScript?
    /// Every stored script, oldest first (ties by name, then hash).
    func all() throws -> [PolicyScript]
    /// Removes every stored script; for removing a user, once none of its revisions is left.
    func deleteAll() throws
    /// Marks the stored script with this hash installed at `at` (the latest under its name from
    /// then on); nothing when none is stored.
    func markInstalled(sha256: String, at: Date) throws
}

extension PolicyScriptRepository {
    /// The script stored last under `name`, if any.
    public func latest(named name: String) throws -> PolicyScript? {
        try all().last { $0.name == name }
    }

    /// The script the user installed last under `name`, if any.
    public func latestInstalled(named name: String) throws -> PolicyScript? {
        try all().last { $0.name == name && $0.installed }
    }

    /// Stores `script` as installed now, or marks the stored copy of it so; returns the stored
    /// script. A new script is held to `limits` (count and bytes).
    @discardableResult
    public func install(_ script: PolicyScript, at now: Date, limits: UserLimits = .standard) throws -> PolicyScript {
        if try self.script(sha256: script.sha256) == nil {
            let held = try all()
            try limits.check(.scripts, holding: held.count + 1)
            try limits.check(.scriptBytes, holding: held.reduce(script.source.utf8.count) { $0 + $1.source.utf8.count })
            try insert(script.installed(at: now))
        } else {
            try markInstalled(sha256: script.sha256, at: now)
        }
        return try self.script(sha256: script.sha256) ?? script.installed(at: now)
    }
}
