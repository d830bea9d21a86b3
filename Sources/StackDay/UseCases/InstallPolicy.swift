/// Stores a policy script after it has loaded in the sandbox and passed its examples.
public struct InstallPolicy {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Vets and stores `source` as `name`; returns the stored script (the one already stored,
    /// when the hash is known). Throws `PolicyRefusal` with each failure; nothing is stored then.
    @discardableResult
    public func callAsFunction(name: String, source: String) throws -> PolicyScript {
        let script = PolicyScript(name: name, source: source, installedAt: context.clock.now)
        try context.policies.vet(script)
        return try context.store.write { tx in
            if let stored = try tx.scripts.script(sha256: script.sha256) { return stored }
            try tx.scripts.insert(script)
            return script
        }
    }

    /// Vets and stores the script `name` resolves to now (the policy folder, then the built-ins).
    @discardableResult
    public func callAsFunction(named name: String) throws -> PolicyScript {
        guard let script = try context.policies.currentScript(named: name, at: context.clock.now) else {
            throw PolicyRefusal(policy: name, failures: ["this engine has no script named \(name)"])
        }
        return try callAsFunction(name: name, source: script.source)
    }
}
