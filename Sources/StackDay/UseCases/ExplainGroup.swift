/// Walks a group's streak fold step by step and keeps the steps whose day falls in a range, as
/// `ExplainHabit` does for a habit.
public struct ExplainGroup {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// `from`…`to` defaults to the 8 weeks up to today; the fold runs from the group's start and
    /// ends today. Throws `GroupError.groupNotFound`, `UseCaseError.invalidRange`, `ReadWindow`'s
    /// errors, a member's `HabitFailure` and what the group's rules throw.
    public func callAsFunction(_ name: String, from: LocalDay? = nil, to: LocalDay? = nil) throws -> GroupExplanation {
        let today = context.today
        let range = try ReadWindow.explained(from: from, to: to, today: today)
        return try context.store.read { tx in
            let group = try GroupRules(context: context).group(named: name, in: tx)
            let (members, failed) = try SummarizeGroups(context: context).memberTimelines(of: [group], in: tx)
            if let failure = group.revisions.flatMap(\.members).lazy.compactMap({ failed[$0] }).first { throw failure }
            return try GroupEvaluator.explain(group, members: members, today: today, range: range) { revision in
                try context.policies.groupPolicies(for: group, revision: revision, scripts: tx.scripts)
            }
        }
    }
}
