/// What a password may be: 8 to 1,024 characters, no control characters (a password is typed or
/// pasted into a field; a NUL or a line end would be a mistake). Nothing else is asked of it: a
/// long phrase beats any rule about digits and symbols.
public enum PasswordRules {
    public static let minimum = 8
    public static let maximum = 1024

    /// Throws `UseCaseError.invalidPassword` saying what is wrong.
    public static func check(_ password: String) throws {
        guard password.count >= minimum else { throw UseCaseError.invalidPassword(reason: "a password needs at least \(minimum) characters") }
        guard password.count <= maximum else { throw UseCaseError.invalidPassword(reason: "a password can have at most \(maximum) characters") }
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw UseCaseError.invalidPassword(reason: "a password cannot hold control characters (a tab, a line end)")
        }
    }
}
