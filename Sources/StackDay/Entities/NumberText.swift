/// Numbers as short text: whole numbers without a fraction (`8`), others in their shortest form
/// that reads back exactly (`0.625`); the one formatting JSON, Lua literals and messages share.
public enum NumberText {
    /// Whole numbers below 2^53 in magnitude print as integers (Lua reads them back as integers).
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9e15 { return String(Int64(value)) }
        return String(value)
    }
}
