/// Resolves the three built-in Swift policies (`daily`, `goal`, `strict`) and nothing else.
public struct StandardPolicyResolver: PolicyResolver {
    public init() {}

    public func policies(for habit: Habit, revision: HabitRevision, scripts: any PolicyScriptRepository) throws -> HabitPolicies {
        for (role, choice, known) in [
            (PolicyRole.schedule, revision.schedule, PolicyChoice.daily),
            (.progress, revision.progress, .goal),
            (.streak, revision.streak, .strict),
        ] where choice.name != known.name {
            throw PolicyResolutionError.unknownPolicy(name: choice.name, role: role, known: [known.name])
        }
        return .standard
    }
}
