/// A policy a habit names for one role, with the parameters it gives that policy.
public struct PolicyChoice: Hashable, Sendable {
    /// The policy's name, e.g. `weekly`; it resolves to `<name>.lua` or a built-in.
    public let name: String
    /// A JSON object; its members are merged over the policy's declared defaults.
    public let parameters: [String: JSONValue]

    public init(name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// Parses parameters from JSON text; throws unless it is a JSON object.
    public init(name: String, parametersJSON: String) throws(HabitValidationError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: parametersJSON)
        } catch {
            throw .parametersNotJSON(policy: name, reason: error.description)
        }
        guard let members = value.objectValue else {
            throw .parametersNotObject(policy: name, text: parametersJSON)
        }
        self.init(name: name, parameters: members)
    }

    /// The parameters as compact JSON text with sorted keys.
    public var parametersJSON: String { JSONValue.object(parameters).jsonText }

    /// `{"name": …, "params": {…}}`, as exports and `--json` output write a policy.
    public var jsonValue: JSONValue { .object(["name": .string(name), "params": .object(parameters)]) }

    public static let daily = PolicyChoice(name: "daily")
    public static let goal = PolicyChoice(name: "goal")
    public static let strict = PolicyChoice(name: "strict")
}
