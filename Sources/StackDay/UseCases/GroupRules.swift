import Foundation

/// What the group use cases share: finding a group, its members by name, and a revision's rules
/// pinned, checked and bound before anything is stored.
struct GroupRules {
    let context: HabitContext

    /// The group with this name (compared as habit names are); throws `GroupError.groupNotFound`.
    func group(named name: String, in tx: any HabitTransaction) throws -> HabitGroup {
        guard let group = try tx.groups.group(named: name) else {
            throw GroupError.groupNotFound(name: name, suggestion: DidYouMean.suggestion(for: name, among: try tx.groups.all().map(\.name)))
        }
        return group
    }

    /// Refuses a name another group has, or one with control characters.
    func requireUniqueName(_ name: String, except id: UUID? = nil, in tx: any HabitTransaction) throws {
        if let control = name.unicodeScalars.first(where: ControlEscapes.isControl) { throw GroupError.controlCharacterInName(code: control.value) }
        if let existing = try tx.groups.group(named: name), existing.id != id { throw GroupError.duplicateName(name: existing.name) }
    }

    /// The habits named, in order; throws `GroupError.memberNotFound` naming the first unknown.
    func members(_ names: [String], in tx: any HabitTransaction) throws -> [Habit] {
        let held = try tx.habits.all()
        return try names.map { name in
            guard let habit = try tx.habits.habit(named: name) else {
                throw GroupError.memberNotFound(name: name, suggestion: DidYouMean.suggestion(for: name, among: held.map(\.name)))
            }
            return habit
        }
    }

    /// `revision` with its rule and streak pinned to the scripts their names resolve to (kept
    /// pins stay), their parameters checked against the scripts' schemas.
    func pinned(_ revision: GroupRevision, in tx: any HabitTransaction) throws -> GroupRevision {
        let pinner = PolicyPinner(context: context)
        let rule = try pinner.pin(revision.rule, in: tx), streak = try pinner.pin(revision.streak, in: tx)
        try context.checkParameters([rule, streak], in: tx)
        return try revision.with(rule: rule, streak: streak)
    }

    /// Binds every revision's rules, so a rule that does not serve its role or refuses its
    /// parameters fails the write (or a simulation) before it is stored; pinned scripts are read
    /// from `scripts` (default the store's).
    func validate(_ group: HabitGroup, in tx: any HabitTransaction, scripts: (any PolicyScriptRepository)? = nil) throws {
        for revision in group.revisions {
            _ = try context.policies.groupPolicies(for: group, revision: revision, scripts: scripts ?? tx.scripts)
        }
    }
}
