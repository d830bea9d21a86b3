import Foundation
import StackDay

/// Groups of habits: made, changed, taken back, removed and read.
extension Application {
    /// `group add`, `POST /v1/groups`: a group of the named habits, judged by `rule` (default
    /// `all`) with a `streak` rule (default `strict`), from `from` (default the earliest member's
    /// start).
    public func createGroup(_ request: CreateGroupRequest) throws -> GroupView {
        let rules = request.rules
        guard let members = rules.members else { throw RequestError("\(request.naming(GroupRuleFields.members)) is required: the habits the group holds") }
        let group = try CreateGroup(context: context)(
            name: request.name, members: members,
            rule: rules.rule ?? PolicyChoice(name: PolicyChoice.allMembers.name, parameters: rules.ruleParameters ?? [:]),
            streak: rules.streak ?? PolicyChoice(name: PolicyChoice.strict.name, parameters: rules.streakParameters ?? [:]), from: rules.from)
        return try groupView(group)
    }

    /// `group edit` and `group rename`, `PATCH /v1/groups/{name}`.
    public func editGroup(_ name: String, _ request: EditGroupRequest) throws -> GroupView {
        let rules = request.rules
        if request.name == nil && !rules.changesRules {
            let options = ([request.naming.isHTTP ? EditGroupRequest.name.declaration : nil].compactMap { $0 } + GroupRuleFields.fields.dropLast())
                .map { request.naming.isHTTP ? "field '\($0.key)'" : $0.commandLineLabel }.joined(separator: ", ")
            throw RequestError("nothing to change: give at least one of \(options)")
        }
        if rules.from != nil && !rules.changesRules {
            throw RequestError("\(request.naming(GroupRuleFields.from)) applies to new members or rules")
        }
        let group = try EditGroup(context: context)(name, EditGroup.Changes(
            name: request.name, members: rules.members, rule: rules.rule, ruleParameters: rules.rule == nil ? rules.ruleParameters : nil,
            streak: rules.streak, streakParameters: rules.streak == nil ? rules.streakParameters : nil, from: rules.from))
        return try groupView(group)
    }

    /// `group rollback`, `POST /v1/groups/{name}/rollback`: the rules before the latest change,
    /// in force again from the request's `from`.
    public func rollBackGroup(_ name: String, _ request: RollBackGroupRequest = RollBackGroupRequest()) throws -> GroupView {
        try groupView(try RollBackGroup(context: context)(name, from: request.from))
    }

    /// `group done`, `POST /v1/groups/{name}/done`: each member still open today recorded up to
    /// its goal; the group as it stands after.
    public func completeGroup(_ name: String) throws -> GroupDetailView {
        try CompleteGroupDay(context: context)(name)
        return try showGroup(name)
    }

    /// `policy simulate POLICY --group NAME`, `POST /v1/groups/{name}/simulate`: the group's
    /// figures under `policy` serving the group or streak role (the one it serves unless `role`
    /// says), from `from` or over its whole history; nothing is written.
    public func simulateGroup(_ name: String, _ request: SimulateRequest) throws -> GroupSimulationView {
        let role = try self.role(of: request, among: [.group, .streak])
        let (simulation, trace) = try traced(request.trace) { context in
            try SimulateGroup(context: context)(name, policy: request.policy, parameters: request.parameters, role: role, from: request.from)
        }
        // Over the whole history the proposal judges from the group's start.
        let from = request.from == nil ? simulation.current.group.startedOn : simulation.proposal.effectiveFrom
        return GroupSimulationView(simulation: simulation, role: role, from: from, trace: trace?.filter { $0.file.hasPrefix(request.policy + ".lua") })
    }

    /// The group lab's "apply": what a simulation proposed (`policy` and `params` as the group
    /// rule or the streak rule) as the group's next revision from `from` (default today).
    public func applyGroupProposal(_ name: String, _ request: SimulateRequest) throws -> GroupView {
        let role = try self.role(of: request, among: [.group, .streak])
        let choice = PolicyChoice(name: request.policy, parameters: request.parameters ?? [:])
        let changes = role == .group ? EditGroup.Changes(rule: choice, from: request.from) : EditGroup.Changes(streak: choice, from: request.from)
        return try groupView(try EditGroup(context: context)(name, changes))
    }

    /// `group explain`, `GET /v1/groups/{name}/explain`: the group's streak fold step by step.
    public func explainGroup(_ name: String, _ request: ExplainRequest = ExplainRequest()) throws -> GroupExplanationView {
        let (explanation, trace) = try traced(request.trace) { try ExplainGroup(context: $0)(name, from: request.from, to: request.to) }
        return GroupExplanationView(explanation, trace: trace)
    }

    /// `group calendar`, `GET /v1/groups/{name}/calendar`: the group's days from `from` (default
    /// the 26 weeks up to `to`, from the group's start at the earliest) to `to` (default today).
    public func groupCalendar(_ name: String, _ request: CalendarRequest = CalendarRequest()) throws -> GroupCalendarView {
        let to = min(request.to ?? today, today)
        if let from = request.from { _ = try request.range(from, to) }
        let result = try SummarizeGroups(context: context).one(named: name)
        let range = LocalDayRange(request.from ?? max(result.group.startedOn, to.adding(days: -7 * 26 + 1)), to)
        try ReadWindow.check(range)
        return GroupCalendarView(result, range: range)
    }

    /// `group remove`, `DELETE /v1/groups/{name}`.
    public func removeGroup(_ name: String) throws -> GroupView {
        try groupView(try DeleteGroup(context: context)(name))
    }

    /// `group list`, `GET /v1/groups`.
    public func listGroups() throws -> GroupListView {
        try context.store.read { tx in
            let names = Dictionary(uniqueKeysWithValues: try tx.habits.all().map { ($0.id, $0.name) })
            return GroupListView(groups: try tx.groups.all().map { GroupView($0, names: names) })
        }
    }

    /// `group show`, `GET /v1/groups/{name}`: the group as defined and its figures today.
    public func showGroup(_ name: String) throws -> GroupDetailView {
        let result = try SummarizeGroups(context: context).one(named: name)
        return GroupDetailView(group: try groupView(result.group), day: GroupDayView(result))
    }

    /// A group's view with its members' names as the store holds them now.
    func groupView(_ group: HabitGroup) throws -> GroupView {
        try context.store.read { tx in GroupView(group, names: Dictionary(uniqueKeysWithValues: try tx.habits.all().map { ($0.id, $0.name) })) }
    }
}
