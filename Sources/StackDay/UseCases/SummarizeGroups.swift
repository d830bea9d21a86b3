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
    ///
    /// With the evaluation cache on (and the store's scripts), a group whose row still holds for
    /// its revisions, today and its members' change counters is read from it, building no member
    /// timeline; the others are judged and their rows staged for the store to keep.
    public func summaries(of groups: [HabitGroup], in tx: any HabitTransaction,
                          scripts: (any PolicyScriptRepository)? = nil) throws -> [Result<GroupSummary, GroupFailure>] {
        guard !groups.isEmpty else { return [] }
        let today = context.today, evaluator = context.policies.evaluationKey
        let habits = try tx.habits.all()
        let cache = scripts == nil ? TimelineLoader(context: context).cache(in: tx) : nil
        var results = [Result<GroupSummary, GroupFailure>?](repeating: nil, count: groups.count)
        var keys = [String?](repeating: nil, count: groups.count)
        if let cache {
            let held = Dictionary(habits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var generations: [UUID: Int64] = [:]
            for id in Set(groups.flatMap { $0.revisions.flatMap(\.members) }) where held[id] != nil {
                generations[id] = try cache.generation(habitID: id)
            }
            for (index, group) in groups.enumerated() {
                guard let key = CachedGroup.key(of: group, today: today, members: generations) else { continue }
                keys[index] = key
                if let row = try cache.group(id: group.id, evaluator: evaluator, key: key) {
                    let members = (group.revision(on: today) ?? group.latest).members.compactMap { held[$0] }
                    results[index] = .success(row.summary(of: group, members: members))
                }
            }
        }
        let judged = groups.indices.filter { results[$0] == nil }
        guard !judged.isEmpty else { return results.map { $0! } }
        let scripts = scripts ?? tx.scripts
        let (members, failed) = try memberTimelines(of: judged.map { groups[$0] }, habits: habits, in: tx)
        for index in judged {
            let group = groups[index]
            if let failure = group.revisions.flatMap(\.members).lazy.compactMap({ failed[$0] }).first {
                results[index] = .failure(GroupFailure(group: group, underlying: failure))
                continue
            }
            do {
                let summary = try GroupEvaluator.evaluate(group, members: members, today: today) { revision in
                    try context.policies.groupPolicies(for: group, revision: revision, scripts: scripts)
                }
                if let cache, let key = keys[index], let row = CachedGroup(summary, evaluator: evaluator, key: key) { cache.stage(group: row) }
                results[index] = .success(summary)
            } catch {
                results[index] = .failure(GroupFailure(group: group, underlying: error))
            }
        }
        return results.map { $0! }
    }

    /// The timelines of every habit the groups ever held, by id, and the failures of those whose
    /// policy failed.
    /// `habits`: the owner's, when the caller has read them already.
    func memberTimelines(of groups: [HabitGroup], habits: [Habit]? = nil, in tx: any HabitTransaction)
        throws -> (timelines: [UUID: HabitTimeline], failed: [UUID: HabitFailure]) {
        let wanted = Set(groups.flatMap { $0.revisions.flatMap(\.members) })
        let habits = try (habits ?? tx.habits.all()).filter { wanted.contains($0.id) }
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
