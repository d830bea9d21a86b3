/// Loads what a habit's timeline needs from the store and builds it: the one place
/// completions and skips become per-day entries.
struct TimelineLoader {
    let context: HabitContext

    func timeline(for habit: Habit, today: LocalDay, through: LocalDay? = nil) throws -> (HabitTimeline, HabitPolicies) {
        let policies = try context.policies.policies(for: habit)
        let period = HabitTimelineBuilder.period(of: habit, today: today, through: through)
        let totals = period.isEmpty ? [] : try context.store.completions.dailyTotals(habitID: habit.id, in: period)
        let skips = period.isEmpty ? [] : try context.store.skips.skips(habitID: habit.id, in: period)
        let timeline = try HabitTimelineBuilder(policies: policies).build(
            habit: habit, dailyTotals: totals, skips: skips, today: today, through: period.last
        )
        return (timeline, policies)
    }
}
