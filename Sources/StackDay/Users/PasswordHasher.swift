/// Turns a password into a stored hash and checks one against it. The domain keeps no hashing
/// of its own: the adapter that has a memory-hard function (Argon2id) provides it.
public protocol PasswordHasher: Sendable {
    /// A hash that records its own salt and parameters (a PHC string such as `$argon2id$v=19$…`).
    func hash(_ password: String) throws -> String
    /// Whether `password` is the one `hash` was made from; false for a malformed hash.
    func verify(_ password: String, against hash: String) -> Bool
    /// A hash of no one's password in this hasher's format and cost: checked when a sign-in names
    /// no user with a password, so that it takes as long as a real check.
    var decoyHash: String { get }
}
