import Foundation

/// A transaction's scripts plus one not stored: what a simulation reads. Writes go to the
/// transaction's own repository (a simulation makes none).
final class OverlayScripts: PolicyScriptRepository {
    let base: any PolicyScriptRepository
    let extra: PolicyScript

    init(base: any PolicyScriptRepository, extra: PolicyScript) {
        self.base = base
        self.extra = extra
    }

    func insert(_ script: PolicyScript) throws {
        try base.insert(script)
    }

    func script(sha256: String) throws -> PolicyScript? {
        sha256 == extra.sha256 ? extra : try base.script(sha256: sha256)
    }

    func all() throws -> [PolicyScript] { try base.all() + [extra] }

    func deleteAll() throws { try base.deleteAll() }

    func markInstalled(sha256: String, at: Date) throws { try base.markInstalled(sha256: sha256, at: at) }
}
