/// Loads what a habit's timeline needs from the store and builds it: the one place
/// completions and skips become per-day entries.
struct TimelineLoader {
    let context: HabitContext

    func timeline(for habit: Habit, today: LocalDay, through: LocalDay? = nil) throws -> (HabitTimeline, HabitPolicies) {
        let policies = try context.policies.policies(for: habit)
        var last = max(today, through ?? today)
        if let archivedOn = habit.archivedOn { last = min(last, archivedOn) }
        let period = LocalDayRange(habit.startedOn, last)
        let completions = period.isEmpty ? [] : try context.store.completions.completions(habitID: habit.id, in: period)
        let skips = period.isEmpty ? [] : try context.store.skips.skips(habitID: habit.id, in: period)
        let timeline = try HabitTimelineBuilder(policies: policies).build(
            habit: habit, completions: completions, skips: skips, today: today, through: last
        )
        return (timeline, policies)
    }
}
