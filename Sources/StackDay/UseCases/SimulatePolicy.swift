/// Runs a habit's real history under a proposed policy for one role; writes nothing.
public struct SimulatePolicy {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// The habit's figures today as stored, and with a revision whose `role` runs the script
    /// `name` resolves to now (`PolicyDirectory`) (with `parameters`, else the ones the habit gives that role when it
    /// already names `name`), effective from `from` (default: the habit's start).
    ///
    /// Throws for an unknown habit or policy, and what the proposed policy throws; the current
    /// figures' own policy failure is thrown as the habit's `HabitFailure`.
    public func callAsFunction(
        _ reference: HabitReference, policy name: String, role: PolicyRole,
        parameters: [String: JSONValue]? = nil, from: RevisionStart = .retroactive, days: Bool = false
    ) throws -> PolicySimulation {
        let script = try context.directory.resolve(name).script
        return try callAsFunction(reference, script: script, role: role, parameters: parameters, from: from, days: days)
    }

    /// The same for a script given by its source (stored or not; it is never stored here).
    /// With `days`, every outcome day of both histories too (`PolicySimulation.currentDays`).
    public func callAsFunction(
        _ reference: HabitReference, script: PolicyScript, role: PolicyRole,
        parameters: [String: JSONValue]? = nil, from: RevisionStart = .retroactive, days: Bool = false
    ) throws -> PolicySimulation {
        let name = script.name
        let today = context.today
        let loader = TimelineLoader(context: context)
        return try context.store.read { tx in
            let habit = try context.habit(reference, in: tx)
            let existing = habit.latest.choice(for: role)
            let params = parameters ?? (existing.name == name ? existing.parameters : [:])
            let scripts = OverlayScripts(base: tx.scripts, extra: script)
            if parameters != nil { try context.checkParameters([PolicyChoice(name: name, parameters: params, sha256: script.sha256)], scripts: scripts) }
            let rules = try habit.latest.with(PolicyChoice(name: name, parameters: params, sha256: script.sha256), for: role)
            let proposedHabit = try habit.appending(rules, from: try from.day(for: habit, today: today), at: context.clock.now)
            func summary(_ habit: Habit) throws -> Result<(HabitSummary, [SimulatedDay]), HabitFailure> {
                try loader.evaluate(habit, today: today, in: tx, scripts: scripts) { evaluated in
                    (try HabitSummary(habit: habit, evaluated: evaluated), days ? try ExplainHabit.days(evaluated) : [])
                }
            }
            let current = try summary(habit).get()
            do {
                let proposed = try summary(proposedHabit).get()
                return PolicySimulation(current: current.0, proposed: proposed.0, revision: proposedHabit.latest,
                                        currentDays: current.1, proposedDays: proposed.1)
            } catch let failure as HabitFailure {
                throw failure.underlying
            }
        }
    }
}
