/// Loads what a habit's timeline needs from the store and builds it: the one place
/// completions and skips become per-day entries.
struct TimelineLoader {
    let context: HabitContext

    /// Reads the habit's history, then runs `body` on its timeline and policies.
    ///
    /// Store errors are thrown; anything thrown while resolving or running the habit's policies
    /// (including inside `body`) becomes this habit's `HabitFailure`, so other habits carry on.
    /// Pinned scripts are read from `scripts` (default: the transaction's).
    func evaluate<T>(
        _ habit: Habit, today: LocalDay, through: LocalDay? = nil, in tx: any HabitTransaction,
        scripts: (any PolicyScriptRepository)? = nil,
        _ body: (HabitTimeline, RevisionPolicies) throws -> T
    ) throws -> Result<T, HabitFailure> {
        let period = HabitTimelineBuilder.period(of: habit, today: today, through: through)
        let totals = period.isEmpty ? [] : try tx.completions.dailyTotals(habitID: habit.id, in: period)
        let skips = period.isEmpty ? [] : try tx.skips.skips(habitID: habit.id, in: period)
        do {
            let policies = RevisionPolicies(habit: habit, resolver: context.policies, scripts: scripts ?? tx.scripts)
            let timeline = try HabitTimelineBuilder(policies: policies).build(
                habit: habit, dailyTotals: totals, skips: skips, today: today, through: period.last
            )
            return .success(try body(timeline, policies))
        } catch {
            return .failure(HabitFailure(habit: habit, underlying: error))
        }
    }
}
