/// Turns the policy names and parameters a habit carries into policies.
public protocol PolicyResolver {
    /// The habit's policies. Throws for an unknown name or parameters the policy rejects,
    /// so creating or editing a habit can refuse them before anything is stored.
    func policies(for habit: Habit) throws -> HabitPolicies
}
