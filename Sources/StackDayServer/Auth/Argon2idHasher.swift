import CSodium
import StackDay

/// Passwords hashed with Argon2id (libsodium's `crypto_pwhash_str`): a random salt per hash, the
/// salt and the cost parameters written into the hash itself (`$argon2id$v=19$m=…,t=…,p=…$…`),
/// so that a later change of parameters still verifies the hashes made before it.
public struct Argon2idHasher: PasswordHasher {
    /// Argon2id of a random password, for `ManageSessions` to check a sign-in against when the
    /// name has no password, so that it takes as long as a real check. Made once, when first asked.
    public var decoyHash: String { Self.decoy }

    private static let decoy: String = {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return (try? make(String(decoding: random.map { 0x61 + $0 % 26 }, as: UTF8.self))) ?? ""
    }()

    /// Throws when libsodium is missing or cannot start (no usable random source).
    public init() throws {
        var failure: UnsafePointer<CChar>?
        guard sd_sodium_load(&failure) == 0 else {
            throw UseCaseError.invalidPassword(reason: failure.map { String(cString: $0) } ?? "libsodium could not start")
        }
    }

    public func hash(_ password: String) throws -> String { try Self.make(password) }

    public func verify(_ password: String, against hash: String) -> Bool {
        var stored = Array(hash.utf8.prefix(sd_pwhash_strbytes() - 1)).map { CChar(bitPattern: $0) }
        stored.append(0)
        let length = UInt64(password.utf8.count)
        return password.withCString { sd_pwhash_str_verify(stored, $0, length) == 0 }
    }

    private static func make(_ password: String) throws -> String {
        var out = [CChar](repeating: 0, count: sd_pwhash_strbytes())
        let length = UInt64(password.utf8.count)
        let status = password.withCString { sd_pwhash_str(&out, $0, length) }
        guard status == 0 else { throw UseCaseError.invalidPassword(reason: "the password could not be hashed (out of memory)") }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
