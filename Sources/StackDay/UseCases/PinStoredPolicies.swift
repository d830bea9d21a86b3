/// Pins every stored revision's unpinned choices to the scripts their names resolve to now:
/// what brings a store written before scripts were kept to pinned rules.
public struct PinStoredPolicies {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Returns the habits pinned. A habit whose policy cannot be resolved now is left unpinned
    /// (it reports that error when evaluated) and does not stop the others.
    @discardableResult
    public func callAsFunction() throws -> [Habit] {
        try context.store.write { tx in
            let pinner = PolicyPinner(context: context)
            var pinned: [Habit] = []
            for habit in try tx.habits.all() where habit.revisions.contains(where: \.isUnpinned) {
                guard let updated = try? pinner.pin(habit, in: tx), updated != habit else { continue }
                try tx.habits.update(updated)
                pinned.append(updated)
            }
            return pinned
        }
    }
}
