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
        let summary: GroupSummary
        switch try SummarizeGroups(context: context).one(named: name) {
        case .success(let judged): summary = judged
        case .failure(let failure): throw failure.underlying
        }
        let today = context.today
        let open = zip(summary.members, summary.todayMembers).filter { habit, day in
            day.state == .pending && habit.revision(on: today).progress.atMostLimit == nil
        }
        guard !open.isEmpty else { return [] }
        let recorder = RecordCompletion(context: context), now = context.clock.now
        return try context.store.write { tx in
            try open.compactMap { habit, day in
                // What the day lacks is read in the write, in the thousandths amounts are kept in:
                // a record made since the group was judged counts, and a member renamed or removed
                // since is refused here.
                let held = try context.habit(.id(habit.id), in: tx)
                let recorded = try tx.completions.held(habitID: held.id, on: today).thousandths
                let lacking = Int64((day.goal * 1000).rounded(.up)) - recorded
                guard lacking >= 1 else { return nil }
                return try recorder.record(held, amount: Double(lacking) / 1000, day: today, recordedAt: now, note: nil, in: tx)
            }
        }
    }
}
