import Foundation

/// Where a policy name is found: the one lookup every surface uses (the command line, the API,
/// the pages, the embedded engine, and the use cases below them).
///
/// For the context's user, a name is looked up in this order, and the first place that has it wins:
///
/// 1. the scripts the user installed (the latest installed under the name);
/// 2. the policy folder (`NAME.lua`), as it is now;
/// 3. scripts the server published to the user (or to every user), the latest;
/// 4. scripts another user shared with the user, the latest shared;
/// 5. the built-in policies;
/// 6. a script a habit of the user already runs under the name.
///
/// A name that none has is `UseCaseError.policyNotFound`, with a "did you mean" among every name
/// the user can use, and never a path.
public struct PolicyDirectory {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// What `name` resolves to; nil when nothing has it.
    public func find(_ name: String, in tx: any HabitTransaction) throws -> ResolvedPolicy? {
        guard PolicyName.isValid(name) else { return nil }
        if let installed = try tx.scripts.latestInstalled(named: name) { return ResolvedPolicy(script: installed, source: .installed) }
        if let (script, file) = try context.policies.folderScript(named: name, at: context.clock.now) {
            return ResolvedPolicy(script: script, source: .folder, file: file)
        }
        let offered = try offers(in: tx).filter { $0.name == name }
        if let published = offered.last(where: { $0.offeredBy == nil }) { return ResolvedPolicy(script: published.script, source: .published) }
        if let shared = offered.last(where: { $0.offeredBy != nil }) {
            return ResolvedPolicy(script: shared.script, source: .shared, sharedBy: shared.offeredBy)
        }
        if let builtIn = context.policies.builtInScript(named: name) { return ResolvedPolicy(script: builtIn, source: .builtIn) }
        if let stored = try tx.scripts.latest(named: name) { return ResolvedPolicy(script: stored, source: .pinned) }
        return nil
    }

    /// What `name` resolves to. Throws `UseCaseError.policyNotFound` naming the closest known name.
    public func resolve(_ name: String, in tx: any HabitTransaction) throws -> ResolvedPolicy {
        if let found = try find(name, in: tx) { return found }
        throw UseCaseError.policyNotFound(name: name, suggestion: DidYouMean.suggestion(for: name, among: try names(in: tx)))
    }

    /// The same in a read of its own.
    public func resolve(_ name: String) throws -> ResolvedPolicy {
        try context.store.read { try resolve(name, in: $0) }
    }

    /// Every name the user can use, sorted.
    public func names(in tx: any HabitTransaction) throws -> [String] {
        var names = Set(context.policies.folderNames() + context.policies.builtInNames())
        names.formUnion(try tx.scripts.all().map(\.name))
        names.formUnion(try offers(in: tx).map(\.name))
        return names.filter(PolicyName.isValid).sorted()
    }

    /// Each name the user can use, with what it resolves to, by name.
    public func entries(in tx: any HabitTransaction) throws -> [ResolvedPolicy] {
        try names(in: tx).compactMap { try find($0, in: tx) }
    }

    /// Every place each name is found, the one that wins first, by name: what `policy list`
    /// shows (a folder file an installed script shadows, a built-in the user overrides).
    public func candidates(in tx: any HabitTransaction) throws -> [ResolvedPolicy] {
        var all: [ResolvedPolicy] = []
        let scripts = try tx.scripts.all()
        let offers = try offers(in: tx)
        for name in try names(in: tx) {
            var found: [ResolvedPolicy] = []
            if let installed = scripts.last(where: { $0.name == name && $0.installed }) { found.append(ResolvedPolicy(script: installed, source: .installed)) }
            if let (script, file) = try? context.policies.folderScript(named: name, at: context.clock.now) {
                found.append(ResolvedPolicy(script: script, source: .folder, file: file))
            }
            if let published = offers.last(where: { $0.name == name && $0.offeredBy == nil }) {
                found.append(ResolvedPolicy(script: published.script, source: .published))
            }
            for shared in offers where shared.name == name && shared.offeredBy != nil {
                found.append(ResolvedPolicy(script: shared.script, source: .shared, sharedBy: shared.offeredBy))
            }
            if let builtIn = context.policies.builtInScript(named: name) { found.append(ResolvedPolicy(script: builtIn, source: .builtIn)) }
            if found.isEmpty, let stored = scripts.last(where: { $0.name == name }) { found.append(ResolvedPolicy(script: stored, source: .pinned)) }
            // What `find` picks goes first: among shares, the latest.
            if let winner = try find(name, in: tx), let index = found.firstIndex(of: winner), index > 0 {
                found.insert(found.remove(at: index), at: 0)
            }
            all += found
        }
        return all
    }

    /// The scripts offered to the context's user.
    private func offers(in tx: any HabitTransaction) throws -> [PolicyOffer] {
        try tx.offers?.offers(to: context.store.owner) ?? []
    }
}
