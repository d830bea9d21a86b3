import StackDay

/// `policy simulate NAME --habit`, `POST /v1/habits/{name}/simulate`: the habit's figures under
/// its stored rules and under the proposed one, `{"habit", "role", "current", "proposed"}`;
/// nothing is written.
public struct SimulationView: JSONView {
    public let simulation: PolicySimulation
    public let role: PolicyRole

    public var json: JSONValue {
        .object([
            "habit": .string(simulation.current.habit.name), "role": .string(role.rawValue),
            "current": ViewJSON.summaryRow(.success(simulation.current)), "proposed": ViewJSON.summaryRow(.success(simulation.proposed)),
        ])
    }
}
