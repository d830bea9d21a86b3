import Foundation

/// "Done all": records, for each member of a group still open today, what it lacks of its goal,
/// in one transaction (all are recorded, or none).
public struct CompleteGroupDay {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// The records made, in the group's order: one per member that is due today, not done, not
    /// skipped and not under a limit (an `at-most` day is met by doing nothing); none when every
    /// member is done already. Throws `GroupError.groupNotFound`, the error of a member's or the
    /// group's rule that failed, and what recording throws.
    @discardableResult
    public func callAsFunction(_ name: String) throws -> [Completion] {
        guard let result = try SummarizeGroups(context: context)(named: name).first else {
            throw GroupError.groupNotFound(name: name, suggestion: nil)
        }
        let summary: GroupSummary
        switch result {
        case .success(let judged): summary = judged
        case .failure(let failure): throw failure.underlying
        }
        let today = context.today
        let open = zip(summary.members, summary.todayMembers).compactMap { habit, day -> (Habit, Double)? in
            // What the day lacks, in the thousandths amounts are kept in, rounded up so the goal is reached.
            let lacking = ((day.goal - day.total) * 1000).rounded(.up) / 1000
            guard day.state == .pending, habit.revision(on: today).progress.atMostLimit == nil, lacking >= 0.001 else { return nil }
            return (habit, lacking)
        }
        guard !open.isEmpty else { return [] }
        let recorder = RecordCompletion(context: context), now = context.clock.now
        return try context.store.write { tx in
            try open.map { habit, lacking in
                // Written again from the store: a member renamed or removed since it was read is refused here.
                let held = try context.habit(.id(habit.id), in: tx)
                return try recorder.record(held, amount: lacking, day: today, recordedAt: now, note: nil, in: tx)
            }
        }
    }
}
