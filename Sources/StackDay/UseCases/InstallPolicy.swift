import Foundation

/// Stores a policy script after it has loaded in the sandbox and passed its examples.
public struct InstallPolicy {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Vets and stores `source` as `name`, installed: from then on `name` resolves to it first
    /// (`PolicyDirectory`). Returns the stored script (the one already stored, marked installed,
    /// when the hash is known). Throws `PolicyRefusal` with each failure; nothing is stored then.
    @discardableResult
    public func callAsFunction(name: String, source: String) throws -> PolicyScript {
        let script = try vetted(name: name, source: source)
        return try context.store.write { tx in try Self.store(script, in: tx, context: context) }
    }

    /// Vets and installs the current script of `name` (`vetted(named:)`).
    @discardableResult
    public func callAsFunction(named name: String) throws -> PolicyScript {
        let script = try vetted(named: name)
        return try context.store.write { tx in try Self.store(script, in: tx, context: context) }
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

    /// The current script of `name`, vetted; writes nothing: the policy folder's `NAME.lua` as it
    /// is now when the folder has one, else what the name resolves to (`PolicyDirectory`: a script
    /// published or shared, a built-in). Throws `UseCaseError.policyNotFound` when nothing has it.
    public func vetted(named name: String) throws -> PolicyScript {
        let script = try context.store.read { tx in
            try context.policies.folderScript(named: name, at: context.clock.now)?.script ?? context.directory.resolve(name, in: tx).script
        }
        return try vetted(name: name, source: script.source)
    }

    /// Stores a vetted `script` in `tx` as installed now (or marks the copy already stored under
    /// its hash installed), held to the user's limits, and returns it.
    static func store(_ script: PolicyScript, in tx: any HabitTransaction, context: HabitContext) throws -> PolicyScript {
        try tx.scripts.install(script, at: context.clock.now, limits: try context.limits(in: tx))
    }
}
