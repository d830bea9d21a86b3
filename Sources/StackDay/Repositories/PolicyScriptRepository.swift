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
}

extension PolicyScriptRepository {
    /// The script stored last under `name`, if any.
    public func latest(named name: String) throws -> PolicyScript? {
        try all().last { $0.name == name }
    }
}
