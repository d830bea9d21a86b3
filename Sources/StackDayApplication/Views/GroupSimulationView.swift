import StackDay

/// `policy simulate NAME --group`, `POST /v1/groups/{name}/simulate`: the group's day and figures
/// under its stored rules and under the proposed one, `{"group", "role", "from", "current",
/// "proposed"}` (each a group day, docs/json.md), with `trace` when asked; nothing is written.
public struct GroupSimulationView: JSONView {
    public let simulation: GroupSimulation
    public let role: PolicyRole
    /// The first day the proposal judges (the group's start when it judges the whole history).
    public let from: LocalDay
    /// What the proposed policy wrote with `trace()`, when asked.
    public let trace: [PolicyTraceLine]?

    public init(simulation: GroupSimulation, role: PolicyRole, from: LocalDay, trace: [PolicyTraceLine]? = nil) {
        self.simulation = simulation
        self.role = role
        self.from = from
        self.trace = trace
    }

    /// The group's name.
    public var group: String { simulation.current.group.name }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "group": .string(group), "role": .string(role.rawValue), "from": .string(from.iso),
            "current": GroupDayView(simulation.current).json, "proposed": GroupDayView(simulation.proposed).json,
        ]
        if let trace { object["trace"] = ViewJSON.trace(trace) }
        return .object(object)
    }
}
