/// A policy a habit names for one role, with the parameters it gives that policy.
///
/// A pinned choice also names the stored script by its SHA-256: it runs that script whatever
/// the policy folder holds now. An unpinned one resolves its name live.
public struct PolicyChoice: Hashable, Sendable {
    /// The policy's name, e.g. `weekly`; it resolves to `<name>.lua` or a built-in.
    public let name: String
    /// A JSON object; its members are merged over the policy's declared defaults.
    public let parameters: [String: JSONValue]
    /// The SHA-256 of the stored script this choice runs; nil while unpinned.
    public let sha256: String?

    public init(name: String, parameters: [String: JSONValue] = [:], sha256: String? = nil) {
        self.name = name
        self.parameters = parameters
        self.sha256 = sha256
    }

    /// The same choice running the script with this hash (unpinned for nil).
    public func pinned(to sha256: String?) -> PolicyChoice {
        PolicyChoice(name: name, parameters: parameters, sha256: sha256)
    }

    /// The same choice without its pin.
    public var unpinned: PolicyChoice { PolicyChoice(name: name, parameters: parameters) }

    /// `name@hash12`, or the name alone while unpinned.
    public var label: String { sha256.map { "\(name)@\($0.prefix(12))" } ?? name }

    /// `weekly {"days":["mon","wed","fri"]}`: the name (the `label` with `pinned`), then the
    /// parameters when there are any; how tables and messages show a choice.
    public func described(pinned: Bool = false) -> String {
        let shownName = pinned ? label : name
        return parameters.isEmpty ? shownName : "\(shownName) \(parametersJSON)"
    }

    /// The limit of the built-in `at-most` progress policy; nil for any other policy.
    public var atMostLimit: Double? {
        name == "at-most" ? parameters["limit"]?.numberValue ?? 0 : nil
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

    /// `{"name": …, "params": {…}, "sha256": …}` (no `sha256` while unpinned), as exports and
    /// `--json` output write a policy.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["name": .string(name), "params": .object(parameters)]
        if let sha256 { members["sha256"] = .string(sha256) }
        return .object(members)
    }

    public static let daily = PolicyChoice(name: "daily")
    public static let goal = PolicyChoice(name: "goal")
    public static let strict = PolicyChoice(name: "strict")
}
