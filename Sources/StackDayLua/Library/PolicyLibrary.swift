import Foundation
#if canImport(Glibc)
import Glibc
#endif
import StackDay

/// Finds policies by name along a search path and keeps them compiled.
///
/// Folders are searched in order (a user folder first), then the built-in policies compiled into
/// the binary from the package's `Policies/` folder, so a user file overrides a built-in of the
/// same name. A file is recompiled when its modification time or size changes, so an edit is
/// picked up without restarting. A file that fails to compile reports its file and line and does
/// not affect other policies.
///
/// `@unchecked Sendable`: the cache of compiled policies is guarded by `lock`, everything else is
/// immutable, and the host serializes calls into its Lua state.
public final class PolicyLibrary: PolicyResolver, @unchecked Sendable {
    public let searchPath: [URL]
    /// Built-in policy sources by name, searched after every folder.
    public let builtIns: [String: String]
    public let budget: PolicyBudget
    private var createdHost: LuaHost?
    private let lock = NSLock()
    private var cache: [String: (stamp: FileStamp, policy: LoadedPolicy)] = [:]
    /// Stored scripts compiled, by SHA-256: a hash names one source, so the entry never goes stale.
    private var stored: [String: LoadedPolicy] = [:]
    /// The file each source hash was last read from, to name it in a refusal.
    private var origins: [String: String] = [:]
    /// Stored scripts `source(of:)` read, by hash.
    private var storedScripts: [String: PolicyScript] = [:]
    /// Sources read for `source(of:)`, by path, with the stamp they were read under.
    private var sources: [String: (stamp: FileStamp, script: PolicyScript)] = [:]

    struct FileStamp: Equatable {
        let seconds: Int
        let nanoseconds: Int
        let size: Int
    }

    private let folderPaths: [String]

    /// The built-in policies compiled into this binary, by name.
    public static var builtInSources: [String: String] { BuiltInPolicySources.all }

    /// How a built-in's `file` begins: `built-in:daily.lua`.
    static let builtInPrefix = "built-in:"

    public init(searchPath: [URL], builtIns: [String: String] = PolicyLibrary.builtInSources, budget: PolicyBudget = .standard) throws {
        self.searchPath = searchPath
        self.builtIns = builtIns
        folderPaths = searchPath.map { $0.standardizedFileURL.path }
        self.budget = budget
    }

    /// The folder a user's own policies live in: `$STACKDAY_POLICIES`, else
    /// `$XDG_CONFIG_HOME/stackday/policies` (an absolute path only, as the XDG base directory
    /// specification says), else `$HOME/.config/stackday/policies`, else the same under the home
    /// the password database gives.
    public static func userFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["STACKDAY_POLICIES"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config).appendingPathComponent("stackday/policies")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(".config/stackday/policies")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/stackday/policies")
    }

    /// The file a name resolves to, searching folders in order.
    public func file(named name: String) -> URL? {
        path(named: name).map { URL(fileURLWithPath: $0) }
    }

    /// The path a name resolves to; plain string paths keep the per-lookup cost to `access` calls.
    private func path(named name: String) -> String? {
        guard PolicyLibrary.isValidName(name) else { return nil }
        for folder in folderPaths {
            let candidate = folder + "/" + name + ".lua"
            if access(candidate, R_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Policy names are file names without `.lua` (`PolicyName.isValid`).
    public static func isValidName(_ name: String) -> Bool { PolicyName.isValid(name) }

    /// Every policy name on the search path and among the built-ins, sorted.
    public func availableNames() -> [String] {
        Set(builtIns.keys).union(folderNames()).sorted()
    }

    public var runsScripts: Bool { true }

    public func folderNames() -> [String] {
        var names = Set<String>()
        for folder in searchPath {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            // `NAME_test.lua` holds NAME's tests (`policy test`), not a policy.
            for file in files where file.hasSuffix(".lua") && !file.hasSuffix("_test.lua") {
                let name = String(file.dropLast(4))
                if PolicyLibrary.isValidName(name) { names.insert(name) }
            }
        }
        return names.sorted()
    }

    public func builtInNames() -> [String] { builtIns.keys.sorted() }

    public func builtInScript(named name: String) -> PolicyScript? {
        guard PolicyLibrary.isValidName(name), let source = builtIns[name] else { return nil }
        return builtInScript(name: name, source: source).script
    }

    /// A built-in's script and file label, its hash computed once per library.
    private func builtInScript(name: String, source: String) -> (script: PolicyScript, file: String) {
        let file = Self.builtInPrefix + name + ".lua"
        if let kept = lock.withLock({ sources[file] }) { return (kept.script, file) }
        let script = PolicyScript(name: name, source: source, installedAt: Date(timeIntervalSince1970: 0))
        lock.withLock { sources[file] = (FileStamp(seconds: 0, nanoseconds: 0, size: source.utf8.count), script) }
        return (script, file)
    }

    public func folderScript(named name: String, at now: Date) throws -> (script: PolicyScript, file: String)? {
        guard let path = path(named: name) else { return nil }
        return (try script(at: URL(fileURLWithPath: path), name: name, at: now), path)
    }

    public func tracing<T>(_ body: () throws -> T) throws -> (T, [PolicyTraceLine]) {
        let (result, lines, _) = try host().authoring(tracing: true) { try body() }
        return (result, lines)
    }

    public func describe(_ script: PolicyScript) throws -> PolicyListing {
        let info = try compiled(script).info
        return PolicyListing(name: script.name, roles: info.roles, description: info.description, schema: info.parameterSchema)
    }

    /// `script` compiled in this library's state, once per hash; errors name it as `fileLabel(of:)`
    /// does (the file it was read from, the built-in, or `NAME.lua@hash`).
    public func compiled(_ script: PolicyScript) throws -> LoadedPolicy {
        if let kept = lock.withLock({ stored[script.sha256] }) { return kept }
        lock.lock()
        defer { lock.unlock() }
        let policy = try LoadedPolicy(name: script.name, file: label(of: script), source: script.source, sha256: script.digest, host: try hostLocked())
        stored[script.sha256] = policy
        return policy
    }

    /// The folder a name resolves from; nil for a built-in (or an unknown name).
    public func folder(of name: String) -> URL? { file(named: name)?.deletingLastPathComponent() }

    /// The compiled policy for `name`, recompiled when its file changed.
    /// Throws `PolicyError` (`.unavailable` listing the known names, or the compile error).
    public func policy(named name: String) throws -> LoadedPolicy {
        guard let path = path(named: name) else {
            if PolicyLibrary.isValidName(name), let source = builtIns[name] { return try loadBuiltIn(name: name, source: source) }
            throw unknown(name)
        }
        return try load(path: path, name: name)
    }

    /// The refusal of a name nothing on the search path or among the built-ins has: the same
    /// refusal as `PolicyDirectory`'s, naming no folder.
    private func unknown(_ name: String) -> UseCaseError {
        .policyNotFound(name: name, suggestion: DidYouMean.suggestion(for: name, among: availableNames()))
    }

    /// The script `choice` runs, and how errors name it, found as `policies(for:)` finds it
    /// (a pinned choice's stored script, checked against its hash; else the file or built-in its
    /// name resolves to now) but never compiled here: what a runner process is sent.
    public func source(of choice: PolicyChoice, scripts: any PolicyScriptRepository) throws -> (script: PolicyScript, file: String) {
        if let sha256 = choice.sha256 {
            // A hash names one source: read and checked once per process, as `storedPolicy` compiles once.
            if let kept = lock.withLock({ storedScripts[sha256] }) { return (kept, fileLabel(of: kept)) }
            guard let script = try scripts.script(sha256: sha256) else { throw PolicyScriptError.missing(name: choice.name, sha256: sha256) }
            guard script.sha256 == sha256 else { throw PolicyScriptError.tampered(name: script.name, stored: sha256, actual: script.sha256) }
            lock.withLock {
                if storedScripts.count >= 4096 { storedScripts.removeAll() }
                storedScripts[sha256] = script
            }
            return (script, fileLabel(of: script))
        }
        if let path = path(named: choice.name) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw PolicyError(policy: choice.name, file: path, line: nil, kind: .unavailable, message: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            let stamp = FileStamp(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), size: Int(info.st_size))
            if let kept = lock.withLock({ sources[path] }), kept.stamp == stamp, kept.script.name == choice.name { return (kept.script, path) }
            let script = try self.script(at: URL(fileURLWithPath: path), name: choice.name, at: Date(timeIntervalSince1970: 0))
            lock.withLock { sources[path] = (stamp, script) }
            return (script, path)
        }
        if PolicyLibrary.isValidName(choice.name), let source = builtIns[choice.name] {
            return builtInScript(name: choice.name, source: source)
        }
        throw unknown(choice.name)
    }

    /// How errors name `script` (`label(of:)`).
    public func fileLabel(of script: PolicyScript) -> String {
        lock.withLock { label(of: script) }
    }

    /// Refuses a script whose name is not a policy name.
    static func checkName(of script: PolicyScript) throws {
        guard PolicyLibrary.isValidName(script.name) else {
            throw PolicyRefusal(policy: script.name, failures: ["'\(script.name)' is not a policy name (letters, digits, - and _, at most 64)"])
        }
    }

    /// Compiles a policy from any file (used by `policy check FILE`), cached like named ones.
    public func policy(at file: URL) throws -> LoadedPolicy {
        try load(path: file.standardizedFileURL.path, name: file.deletingPathExtension().lastPathComponent)
    }

    private func load(path: String, name: String) throws -> LoadedPolicy {
        // The file's modification time and size decide whether the compiled policy is still good;
        // the source is read only when they change.
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw PolicyError(policy: name, file: path, line: nil, kind: .unavailable, message: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        let stamp = FileStamp(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), size: Int(info.st_size))
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[path], cached.stamp == stamp, cached.policy.name == name { return cached.policy }
        let source: String
        do {
            source = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw PolicyError(policy: name, file: path, line: nil, kind: .unavailable, message: "cannot read the file: \(error.localizedDescription)")
        }
        return try compile(name: name, file: path, source: source, stamp: stamp)
    }

    private func loadBuiltIn(name: String, source: String) throws -> LoadedPolicy {
        let file = Self.builtInPrefix + name + ".lua"
        let stamp = FileStamp(seconds: 0, nanoseconds: 0, size: source.utf8.count)
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[file], cached.stamp == stamp { return cached.policy }
        return try compile(name: name, file: file, source: source, stamp: stamp)
    }

    /// The compiled chunk for `source`: the one cached for this file when its SHA-256 is unchanged
    /// (a file touched or saved again compiles nothing), else a new compile. Called with `lock` held.
    private func compile(name: String, file: String, source: String, stamp: FileStamp) throws -> LoadedPolicy {
        let digest = SHA256(of: source)
        if let cached = cache[file], cached.policy.name == name, cached.policy.sha256 == digest {
            cache[file] = (stamp, cached.policy)
            return cached.policy
        }
        let policy = try LoadedPolicy(name: name, file: file, source: source, sha256: digest, host: try hostLocked())
        cache[file] = (stamp, policy)
        return policy
    }

    /// The Lua state policies run in, created on first use: a read answered from the evaluation
    /// cache never starts Lua. Throws `PolicyError` when the state cannot be created.
    public func host() throws -> LuaHost {
        lock.lock()
        defer { lock.unlock() }
        return try hostLocked()
    }

    /// The same, called with `lock` held.
    private func hostLocked() throws -> LuaHost {
        if let createdHost { return createdHost }
        let host = try LuaHost(budget: budget)
        createdHost = host
        return host
    }

    /// Bytes the Lua state holds (0 before it starts).
    public var retainedBytes: Int {
        lock.lock()
        let host = createdHost
        lock.unlock()
        return host?.memoryInUse ?? 0
    }

    /// The host's own Lua sources (the prelude) and its C boundary version, hashed: cached answers
    /// from a binary that runs policies differently are not reused.
    public var evaluationKey: String { Self.hostKey }

    static let hostKey: String = {
        // The prelude alone runs policies; the starters and annotations beside it decide no answer.
        "lua-host-1:" + FNV1a.key("prelude=" + (HostLuaSources.all["prelude"] ?? ""))
    }()

    /// Binds the policy to a habit, checking it serves `role`.
    public func bind(_ choice: PolicyChoice, role: PolicyRole, startedOn: LocalDay, goal: Double, unit: String) throws -> PolicyBinding {
        try bind(try policy(named: choice.name), choice: choice, role: role, startedOn: startedOn, goal: goal, unit: unit)
    }

    static func roleFunctions(_ roles: Set<PolicyRole>) -> String {
        let names = PolicyRole.allCases.filter(roles.contains).map(\.functionName)
        return names.isEmpty ? "no role function" : names.joined(separator: ", ")
    }

    /// The policies of one revision: a pinned choice runs the stored script with its hash
    /// (checked against its source), an unpinned one the file its name resolves to now.
    public func policies(for habit: Habit, revision: HabitRevision, scripts: any PolicyScriptRepository) throws -> HabitPolicies {
        func binding(_ role: PolicyRole) throws -> PolicyBinding {
            let choice = revision.choice(for: role)
            let policy = try choice.sha256.map { try storedPolicy(name: choice.name, sha256: $0, scripts: scripts) } ?? self.policy(named: choice.name)
            return try bind(policy, choice: choice, role: role, startedOn: habit.startedOn, goal: revision.goal, unit: habit.unit)
        }
        return HabitPolicies(
            schedule: LuaSchedulePolicy(binding: try binding(.schedule)),
            progress: LuaProgressPolicy(binding: try binding(.progress)),
            streak: LuaStreakPolicy(binding: try binding(.streak))
        )
    }

    public func groupPolicies(for group: HabitGroup, revision: GroupRevision, scripts: any PolicyScriptRepository) throws -> GroupPolicies {
        func binding(_ choice: PolicyChoice, _ role: PolicyRole) throws -> PolicyBinding {
            let policy = try choice.sha256.map { try storedPolicy(name: choice.name, sha256: $0, scripts: scripts) } ?? self.policy(named: choice.name)
            return try bind(policy, choice: choice, role: role, startedOn: group.startedOn, goal: 1, unit: "")
        }
        return GroupPolicies(rule: LuaGroupPolicy(binding: try binding(revision.rule, .group)),
                             streak: LuaStreakPolicy(binding: try binding(revision.streak, .streak)))
    }

    /// The parameters the policy of `choice` takes (`PolicyInfo.parameterSchema`).
    public func parameterSchema(for choice: PolicyChoice, scripts: any PolicyScriptRepository) throws -> PolicyParameterSchema? {
        let policy = try choice.sha256.map { try storedPolicy(name: choice.name, sha256: $0, scripts: scripts) } ?? self.policy(named: choice.name)
        return policy.info.parameterSchema
    }

    /// The stored script with this hash, compiled once per process.
    /// Throws `PolicyScriptError` for a missing or altered script, `PolicyError` for one that fails to load.
    public func storedPolicy(name: String, sha256: String, scripts: any PolicyScriptRepository) throws -> LoadedPolicy {
        lock.lock()
        let compiled = stored[sha256]
        lock.unlock()
        if let compiled { return compiled }
        guard let script = try scripts.script(sha256: sha256) else { throw PolicyScriptError.missing(name: name, sha256: sha256) }
        let actual = SHA256(of: script.source)
        guard actual.description == sha256 else {
            throw PolicyScriptError.tampered(name: script.name, stored: sha256, actual: actual.description)
        }
        lock.lock()
        defer { lock.unlock() }
        let policy = try LoadedPolicy(name: script.name, file: label(of: script), source: script.source, sha256: actual, host: try hostLocked())
        stored[sha256] = policy
        return policy
    }

    /// How a script is named in errors: the file this process read it from, `built-in:NAME.lua`
    /// for the built-in's source, else `NAME.lua@` and the first 12 hex digits of its hash.
    /// Called with `lock` held.
    private func label(of script: PolicyScript) -> String {
        if let origin = origins[script.sha256] { return origin }
        if builtIns[script.name] == script.source { return Self.builtInPrefix + script.name + ".lua" }
        return "\(script.name).lua@\(script.shortHash)"
    }

    /// The script in any file, named by its file name unless `name` is given.
    public func script(at file: URL, name: String? = nil, at now: Date) throws -> PolicyScript {
        let name = name ?? file.deletingPathExtension().lastPathComponent
        let source: String
        do {
            source = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw PolicyError(policy: name, file: file.path, line: nil, kind: .unavailable, message: "cannot read the file: \(error.localizedDescription)")
        }
        let script = PolicyScript(name: name, source: source, installedAt: now)
        lock.lock()
        origins[script.sha256] = file.standardizedFileURL.path
        lock.unlock()
        return script
    }

    /// Compiles `script` in the sandbox, checks it declares a role, and runs its examples.
    /// Throws `PolicyRefusal` with one line per failure, each naming the file (and the line
    /// where it is known).
    public func vet(_ script: PolicyScript) throws {
        try Self.checkName(of: script)
        let file = fileLabel(of: script)
        let policy: LoadedPolicy
        do {
            policy = try LoadedPolicy(name: script.name, file: file, source: script.source, sha256: script.digest, host: try host())
        } catch {
            throw PolicyRefusal(policy: script.name, failures: ["\(error)"])
        }
        let report = PolicyChecker(library: self).check(policy)
        guard report.isSuccess else {
            throw PolicyRefusal(policy: script.name, failures: report.failures.map { "\(file): \($0)" })
        }
    }

    func bind(_ policy: LoadedPolicy, choice: PolicyChoice, role: PolicyRole, startedOn: LocalDay, goal: Double, unit: String) throws -> PolicyBinding {
        guard policy.info.roles.contains(role) else {
            throw PolicyError(policy: choice.name, file: policy.file, line: nil, kind: .unavailable,
                              message: "cannot serve as a \(role.rawValue) policy (it defines \(Self.roleFunctions(policy.info.roles)))")
        }
        return try policy.bind(parameters: choice.parameters, startedOn: startedOn, goal: goal, unit: unit)
    }
}

extension PolicyRole {
    /// The Lua function that serves the role.
    public var functionName: String {
        switch self {
        case .schedule: "isDue"
        case .progress: "progress"
        case .streak: "streak"
        case .group: "group"
        }
    }
}
