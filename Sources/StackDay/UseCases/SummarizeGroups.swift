import Foundation

/// Every group (or one) with its days and figures as of today, in the order they were made.
public struct SummarizeGroups {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// One result per group: its summary, or the `GroupFailure` of a rule or member that failed.
    /// With `name`, only that group (throws `GroupError.groupNotFound`). Throws store errors.
    public func callAsFunction(named name: String? = nil) throws -> [Result<GroupSummary, GroupFailure>] {
        try context.store.read { tx in
            try summaries(of: try name.map { [try GroupRules(context: context).group(named: $0, in: tx)] } ?? tx.groups.all(), in: tx)
        }
    }

    /// The group with this name, judged; throws `GroupError.groupNotFound` and store errors.
    public func one(named name: String) throws -> Result<GroupSummary, GroupFailure> {
        try context.store.read { tx in
            try summaries(of: [try GroupRules(context: context).group(named: name, in: tx)], in: tx)[0]
        }
    }

    /// `groups` judged as of today inside `tx`, whether stored or not (a simulation's proposal),
    /// their rules' pinned scripts read from `scripts` (default the store's).
    public func summaries(of groups: [HabitGroup], in tx: any HabitTransaction,
                          scripts: (any PolicyScriptRepository)? = nil) throws -> [Result<GroupSummary, GroupFailure>] {
        let scripts = scripts ?? tx.scripts
        let today = context.today
        guard !groups.isEmpty else { return [] }
        let (members, failed) = try memberTimelines(of: groups, in: tx)
        return groups.map { group in
            if let failure = group.revisions.flatMap(\.members).lazy.compactMap({ failed[$0] }).first {
                return .failure(GroupFailure(group: group, underlying: failure))
            }
            do {
                return .success(try GroupEvaluator.evaluate(group, members: members, today: today) { revision in
                    try context.policies.groupPolicies(for: group, revision: revision, scripts: scripts)
                })
            } catch {
                return .failure(GroupFailure(group: group, underlying: error))
            }
        }
    }

    /// The timelines of every habit the groups ever held, by id, and the failures of those whose
    /// policy failed.
    func memberTimelines(of groups: [HabitGroup], in tx: any HabitTransaction) throws -> (timelines: [UUID: HabitTimeline], failed: [UUID: HabitFailure]) {
        let wanted = Set(groups.flatMap { $0.revisions.flatMap(\.members) })
        let habits = try tx.habits.all().filter { wanted.contains($0.id) }
        let results = try TimelineLoader(context: context).evaluateEach(habits, today: context.today, in: tx) { $1.timeline }
        var timelines: [UUID: HabitTimeline] = [:]
        var failed: [UUID: HabitFailure] = [:]
        for (habit, result) in zip(habits, results) {
            switch result {
            case .success(let timeline): timelines[habit.id] = timeline
            case .failure(let failure): failed[habit.id] = failure
            }
        }
        return (timelines, failed)
    }
}
