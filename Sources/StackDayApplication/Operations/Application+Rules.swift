import StackDay

/// Rule revisions, simulations and installed policies.
extension Application {
    /// `policy history`, `GET /v1/habits/{name}/revisions`.
    public func revisions(_ name: String) throws -> RevisionsView {
        RevisionsView(habit: try FindHabit(context: context)(named: name))
    }

    /// `policy rollback`, `POST /v1/habits/{name}/rollback`: takes back the latest rule change (or
    /// every revision after `to`), from the change's own first day unless `from` says otherwise.
    public func rollback(_ name: String, _ request: RollbackRequest = RollbackRequest()) throws -> RulesView {
        let before = try FindHabit(context: context)(named: name).revisions.count
        let habit = try RollBackRules(context: context)(.name(name), request.target, from: request.from)
        return RulesView(habit: habit, before: before)
    }

    /// `policy simulate POLICY --habit NAME`, `POST /v1/habits/{name}/simulate`: the habit's figures
    /// with `policy` (and `params`) in `role` from `from` (default: the whole history). Without a
    /// role, the one role the policy serves.
    public func simulate(_ name: String, _ request: SimulateRequest, days: Bool = false) throws -> SimulationView {
        let role = try self.role(of: request)
        let (simulation, trace) = try traced(request.trace) { context in
            try SimulatePolicy(context: context)(.name(name), policy: request.policy, role: role, parameters: request.parameters,
                                                 from: request.from.map(RevisionStart.day) ?? .retroactive, days: days)
        }
        // The proposed policy's lines: the stored rules' own are not what is being tried.
        return SimulationView(simulation: simulation, role: role, trace: trace?.filter { $0.file.hasPrefix(request.policy + ".lua") })
    }

    /// Runs `body` with `trace()` writing when `asked` (and every answer evaluated afresh, so that
    /// each policy call runs and traces); the lines, or nil when not asked.
    func traced<T>(_ asked: Bool, _ body: (HabitContext) throws -> T) throws -> (T, [PolicyTraceLine]?) {
        guard asked else { return (try body(context), nil) }
        let fresh = HabitContext(store: context.store, clock: context.clock, boundary: context.boundary, policies: context.policies,
                                 usesEvaluationCache: false)
        let (result, lines) = try context.policies.tracing { try body(fresh) }
        return (result, lines)
    }

    /// The lab's "apply": what a simulation proposed (`policy` and `params` in `role`, by default
    /// the one role it serves) as the habit's new rules from `from` (default today).
    public func applyProposal(_ name: String, _ request: SimulateRequest) throws -> HabitView {
        let role = try self.role(of: request)
        let rules = HabitRules(policies: [role: request.policy], parameters: [role: request.parameters ?? [:]])
        return try editHabit(name, EditHabitRequest(rules: rules, rulesFrom: RulesFromRequest(request.from.map(RevisionStart.day) ?? .today),
                                                    naming: request.naming))
    }

    /// The role a proposal names, else the one role its policy serves.
    /// The role a simulation tries its policy in, among `among` (a habit's three, a group's two):
    /// the one asked, else the one the policy serves.
    func role(of request: SimulateRequest, among: [PolicyRole] = PolicyRole.habitRoles) throws -> PolicyRole {
        if let role = request.role {
            guard among.contains(role) else {
                throw RequestError("\(request.naming(SimulateRequest.role)) must be one of \(among.map(\.rawValue).joined(separator: ", ")) here, not \(role.rawValue)")
            }
            return role
        }
        let listing = try context.policies.describe(try context.directory.resolve(request.policy).script)
        let roles = among.filter(listing.roles.contains)
        if roles.isEmpty {
            throw RequestError("policy \(request.policy) serves none of \(among.map(\.rawValue).joined(separator: ", ")) (it serves \(listing.roles.map(\.rawValue).joined(separator: ", ")))")
        }
        guard roles.count == 1 else {
            throw RequestError("policy \(request.policy) serves \(roles.map(\.rawValue).joined(separator: ", ")); say which with \(request.naming(SimulateRequest.role))")
        }
        return roles[0]
    }

    /// The policies a habit can name for `role`, by name (what the pages' forms offer): each name
    /// the user can use, as it resolves, when it serves the role.
    public func policies(for role: PolicyRole) -> [PolicyListing] {
        ((try? policyList().inUse) ?? []).compactMap(\.listing).filter { $0.roles.contains(role) }
    }

    /// Every policy the lab can try: each name the user can use, as it resolves, by name.
    public func labPolicies() throws -> [PolicyListing] {
        try policyList().inUse.compactMap(\.listing)
    }

    /// The script `name` resolves to, as a starting point for the editor; nil when nothing has it.
    public func policySource(_ name: String) throws -> ResolvedPolicy? {
        try context.store.read { try context.directory.find(name, in: $0) }
    }

    /// `policy list`, `GET /v1/policies`, the policies page: every place each name the user can use
    /// is found (`PolicyDirectory.candidates`), each with what its script declares.
    public func policyList() throws -> PolicyListView {
        let candidates = try context.store.read { try context.directory.candidates(in: $0) }
        var seen = Set<String>()
        return PolicyListView(entries: candidates.map { policy in
            let inUse = seen.insert(policy.name).inserted
            do {
                return PolicyEntryView(policy: policy, listing: try context.policies.describe(policy.script), error: nil, inUse: inUse)
            } catch {
                return PolicyEntryView(policy: policy, listing: nil, error: "\(error)", inUse: inUse)
            }
        })
    }

    /// `GET /v1/policies/{name}`: the script `name` resolves to (`PolicyDirectory`), with its
    /// source text and where it was found (`origin`).
    public func policyDetail(_ name: String) throws -> PolicyScriptView {
        guard let resolved = try context.store.read({ try context.directory.find(name, in: $0) }) else { throw UseCaseError.policyNotInstalled(name: name) }
        return PolicyScriptView(resolved.script, includesSource: true, origin: resolved)
    }

    /// `policy install`, `PUT /v1/policies/{name}`: checks `source` and stores it; throws the
    /// `PolicyRefusal` of a script the checks refuse (`RefusalView`).
    public func install(_ name: String, source: String) throws -> PolicyScriptView {
        PolicyScriptView(try InstallPolicy(context: context)(name: name, source: source))
    }

    /// `policy install NAME`: installs the current script of `name` (the policy folder's file,
    /// else what the name resolves to: a script published or shared, a built-in).
    public func install(named name: String) throws -> PolicyScriptView {
        PolicyScriptView(try InstallPolicy(context: context)(named: name))
    }
}

extension Application {
    /// `explain NAME`, `GET /v1/habits/{name}/explain`: the streak fold step by step over the days
    /// asked (default: the 8 weeks up to today).
    public func explain(_ name: String, _ request: ExplainRequest = ExplainRequest()) throws -> ExplanationView {
        let (explanation, trace) = try traced(request.trace) { try ExplainHabit(context: $0)(.name(name), from: request.from, to: request.to) }
        return ExplanationView(explanation, trace: trace)
    }
}
