import StackDay

/// Rule revisions, simulations and installed policies.
extension Application {
    /// `policy history`, `GET /v1/habits/{name}/revisions`.
    public func revisions(_ name: String) throws -> RevisionsView {
        RevisionsView(habit: try FindHabit(context: context)(named: name))
    }

    /// `policy rollback`, `POST /v1/habits/{name}/rollback`: the rules of revision `to` (default
    /// the one before the latest) again from `from` (default today).
    public func rollback(_ name: String, _ request: RollbackRequest = RollbackRequest()) throws -> RulesView {
        let habit = try RollBackRules(context: context)(.name(name), to: request.revision, from: request.from.map(RevisionStart.day) ?? .today)
        return RulesView(habit: habit, restored: request.revision ?? habit.latest.number - 2)
    }

    /// `policy simulate POLICY --habit NAME`, `POST /v1/habits/{name}/simulate`: the habit's figures
    /// with `policy` (and `params`) in `role` from `from` (default: the whole history). Without a
    /// role, the one role the policy serves.
    public func simulate(_ name: String, _ request: SimulateRequest, days: Bool = false) throws -> SimulationView {
        let role = try self.role(of: request)
        let simulation = try SimulatePolicy(context: context)(.name(name), policy: request.policy, role: role, parameters: request.parameters,
                                                              from: request.from.map(RevisionStart.day) ?? .retroactive, days: days)
        return SimulationView(simulation: simulation, role: role)
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
    private func role(of request: SimulateRequest) throws -> PolicyRole {
        if let role = request.role { return role }
        let roles = PolicyRole.allCases.filter(try context.policies.roles(ofPolicyNamed: request.policy).contains)
        guard roles.count == 1 else {
            throw RequestError("policy \(request.policy) serves \(roles.map(\.rawValue).joined(separator: ", ")); say which with \(request.naming(SimulateRequest.role))")
        }
        return roles[0]
    }

    /// The policies a habit can name for `role`, by name (what the pages' forms offer).
    public func policies(for role: PolicyRole) -> [PolicyListing] {
        context.policies.catalog().filter { $0.roles.contains(role) }
    }

    /// Every policy the lab can try: the built-ins and the policy folder's, then the scripts this
    /// user installed that neither has, by name.
    public func labPolicies() throws -> [PolicyListing] {
        let known = context.policies.catalog()
        let names = Set(known.map(\.name))
        let installed = try context.store.read { tx in
            try Set(tx.scripts.all().map(\.name)).subtracting(names).sorted().compactMap { try tx.scripts.latest(named: $0) }
        }
        return known + installed.map { script in
            let schema = (try? context.store.read { tx in
                try context.policies.parameterSchema(for: PolicyChoice(name: script.name, sha256: script.sha256), scripts: tx.scripts)
            }) ?? nil
            return PolicyListing(name: script.name, roles: Set(PolicyRole.allCases), description: "", schema: schema ?? PolicyParameterSchema(defaults: [:], declared: [:]))
        }
    }

    /// The source of the built-in (or policy folder's) script `name`, as a starting point.
    public func policySource(_ name: String) throws -> PolicyScript? {
        try context.policies.currentScript(named: name, at: context.clock.now)
    }

    /// `GET /v1/policies`: the scripts this user installed.
    public func installedPolicies() throws -> PolicyListView {
        PolicyListView(scripts: try context.store.read { try $0.scripts.all() })
    }

    /// `GET /v1/policies/{name}`: the latest script installed under `name`, with its source.
    public func installedPolicy(_ name: String) throws -> PolicyScriptView {
        guard let script = try context.store.read({ try $0.scripts.latest(named: name) }) else {
            throw UseCaseError.policyNotInstalled(name: name)
        }
        return PolicyScriptView(script, includesSource: true)
    }

    /// `policy install`, `PUT /v1/policies/{name}`: checks `source` and stores it; throws the
    /// `PolicyRefusal` of a script the checks refuse (`RefusalView`).
    public func install(_ name: String, source: String) throws -> PolicyScriptView {
        PolicyScriptView(try InstallPolicy(context: context)(name: name, source: source))
    }
}

extension Application {
    /// `explain NAME`, `GET /v1/habits/{name}/explain`: the streak fold step by step over the days
    /// asked (default: the 8 weeks up to today).
    public func explain(_ name: String, _ request: ExplainRequest = ExplainRequest()) throws -> ExplanationView {
        let explanation = try ExplainHabit(context: context)(.name(name), from: request.from, to: request.to)
        return ExplanationView(explanation)
    }
}
