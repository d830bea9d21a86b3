import StackDay

/// `policy simulate NAME --habit`, `POST /v1/habits/{name}/simulate`: the habit's figures under
/// its stored rules and under the proposed one, `{"habit", "role", "current", "proposed"}`;
/// nothing is written.
public struct SimulationView: JSONView {
    public let simulation: PolicySimulation
    public let role: PolicyRole
    /// What the proposed policy wrote with `trace()`, when asked (`trace`).
    public let trace: [PolicyTraceLine]?

    public init(simulation: PolicySimulation, role: PolicyRole, trace: [PolicyTraceLine]? = nil) {
        self.simulation = simulation
        self.role = role
        self.trace = trace
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "habit": .string(simulation.current.habit.name), "role": .string(role.rawValue),
            "current": ViewJSON.summaryRow(.success(simulation.current)), "proposed": ViewJSON.summaryRow(.success(simulation.proposed)),
        ]
        if let trace { object["trace"] = ViewJSON.trace(trace) }
        return .object(object)
    }
}
