import StackDay
import StackDayLua

/// A parsed command line: the command path, its arguments and options, and the global options.
struct Invocation {
    let path: [String]
    let arguments: [String: String]
    /// Every value of each argument (more than one only for a variadic one).
    let argumentLists: [String: [String]]
    let options: [String: String]
    let flags: Set<String>
    /// Every value of each option given more than once (a repeatable one), in order.
    var optionLists: [String: [String]] = [:]
    /// The command's options whose every value counts (`OptionSpec.repeatable`).
    var repeatable: Set<String> = []
    let globals: GlobalOptions
    let io: TerminalIO
    /// Files to remove if the command fails.
    var createdFiles = CreatedFiles()

    func argument(_ name: String) -> String? { arguments[name] }

    /// Every value given for a variadic argument, in order.
    func arguments(_ name: String) -> [String] { argumentLists[name] ?? [] }

    func option(_ name: String) -> String? { options[name] }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func usage(_ message: String) -> UsageError { UsageError(message: message, path: path) }

    /// The `name` argument as a policy name; a usage error names what a policy name is.
    func policyName(_ argument: String = "name") throws -> String {
        let name = required(argument)
        guard PolicyLibrary.isValidName(name) else {
            throw usage("invalid value for \(argument.uppercased()): '\(name)' is not a policy name (letters, digits, - and _, at most 64)")
        }
        return name
    }

    /// A required argument (the parser already checked it is present).
    func required(_ name: String) -> String { arguments[name] ?? "" }

    /// A `YYYY-MM-DD` value of an argument or option, or nil when absent.
    func day(_ option: String) throws -> LocalDay? {
        guard let text = options[option] ?? arguments[option] else { return nil }
        do {
            return try LocalDay(iso: text)
        } catch {
            throw usage("invalid value for --\(option): \(error)")
        }
    }

    /// A JSON object option parsed as policy parameters for `policy`.
    func parameters(_ option: String, policy: String) throws -> PolicyChoice? {
        guard let text = options[option] else { return nil }
        return try PolicyChoice(name: policy, parametersJSON: text)
    }
}
