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
        let script = try vetted(name: name, source: source)
        return try context.store.write { tx in try Self.store(script, in: tx) }
    }

    /// Vets and stores the script `name` resolves to now (the policy folder, then the built-ins).
    @discardableResult
    public func callAsFunction(named name: String) throws -> PolicyScript {
        let script = try vetted(named: name)
        return try context.store.write { tx in try Self.store(script, in: tx) }
    }

    /// `source` as a script named `name`, once it has passed every check; writes nothing.
    /// Throws `UseCaseError.scriptNotText` for a NUL byte, `UseCaseError.scriptTooLarge` past
    /// 256 KiB (before anything compiles it), `PolicyRefusal` naming each check that failed.
    public func vetted(name: String, source: String) throws -> PolicyScript {
        let script = PolicyScript(name: name, source: source, installedAt: context.clock.now)
        try script.checkIsText()
        try script.checkSize()
        try context.policies.vet(script)
        return script
    }

    /// The script `name` resolves to now, vetted; writes nothing. Throws
    /// `UseCaseError.policyNotFound` when neither a policy folder nor the built-ins have it.
    public func vetted(named name: String) throws -> PolicyScript {
        guard let script = try context.policies.currentScript(named: name, at: context.clock.now) else {
            throw UseCaseError.policyNotFound(name: name, suggestion: DidYouMean.suggestion(for: name, among: context.policies.catalog().map(\.name)))
        }
        return try vetted(name: name, source: script.source)
    }

    /// Stores a vetted `script` in `tx`, or returns the copy already stored under its hash.
    static func store(_ script: PolicyScript, in tx: any HabitTransaction) throws -> PolicyScript {
        if let stored = try tx.scripts.script(sha256: script.sha256) { return stored }
        try tx.scripts.insert(script)
        return script
    }
}
