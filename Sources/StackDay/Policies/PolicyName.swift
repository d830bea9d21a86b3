/// What a policy may be called: a file name without `.lua`.
public enum PolicyName {
    /// The longest name, in characters.
    public static let limit = 64

    /// Letters, digits, `-` and `_`, 1 to 64 of them.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= limit && name.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_"
        }
    }

    /// How a refusal says what a name may be.
    public static let rule = "letters, digits, - and _, at most 64"
}
