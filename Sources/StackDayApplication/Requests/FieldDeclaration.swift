import StackDay

/// What one request field is, apart from its Swift type: its key, its help, how the command line
/// takes it and its JSON Schema. A request type lists its fields' declarations once
/// (`RequestType.fields`); the command line's options and help, the allowed-field checks and the
/// API document's schemas are all made from that list.
public struct FieldDeclaration: Sendable {
    /// How the command line takes a field.
    public enum CommandLine: Sendable, Equatable {
        /// `--kebab-key <valueName>`; the last one given counts.
        case option(valueName: String)
        /// `--kebab-key <valueName>`, given any number of times; every value counts.
        case repeatable(valueName: String)
        /// `--kebab-key`, true when given.
        case flag
        /// A positional argument `<name>` (the last one may take every remaining value).
        case argument(name: String, optional: Bool, variadic: Bool)
        /// Not on the command line (an HTTP field only).
        case none
    }

    /// The name in JSON, a query and a form (`scheduleParams`).
    public let key: String
    /// One sentence for a person: the command line's help and the API document's description.
    public let help: String
    public let commandLine: CommandLine
    /// The JSON Schema of the field's value (OpenAPI 3.1's dialect).
    public let schema: JSONValue
    /// Whether a request without it is refused (`… is required`).
    public let isRequired: Bool
    /// Only the command line takes it (`--out`): never part of an HTTP request or its schema.
    public let isCommandLineOnly: Bool

    public init(key: String, help: String, commandLine: CommandLine, schema: JSONValue, isRequired: Bool = false, isCommandLineOnly: Bool = false) {
        self.key = key
        self.help = help
        self.commandLine = commandLine
        self.schema = schema
        self.isRequired = isRequired
        self.isCommandLineOnly = isCommandLineOnly
    }

    /// The command line's name for the key: `scheduleParams` is `schedule-params`.
    public var optionName: String { Self.kebab(key) }

    /// How the command line names the field in a message: `--schedule-params`, `<amount>`.
    public var commandLineLabel: String {
        if case .argument(let name, _, _) = commandLine { return "<\(name)>" }
        return "--" + optionName
    }

    /// `scheduleParams` → `schedule-params`.
    public static func kebab(_ key: String) -> String {
        // Keys are ASCII: byte by byte, without the Unicode tables a Character's case would load.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count + 4)
        for byte in key.utf8 {
            if (65...90).contains(byte) { bytes += [45, byte + 32] } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same field with other help (`habit edit`'s "default: unchanged").
    public func helping(_ help: String) -> FieldDeclaration {
        FieldDeclaration(key: key, help: help, commandLine: commandLine, schema: schema, isRequired: isRequired, isCommandLineOnly: isCommandLineOnly)
    }
}
