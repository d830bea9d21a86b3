import Foundation
#if canImport(Glibc)
import Glibc
#endif
import StackDay

/// Finds policies by name along a search path and keeps them compiled.
///
/// Folders are searched in order (a user folder first, then the built-in `Policies/`), so a
/// user file overrides a built-in of the same name. A file is recompiled when its modification
/// time or size changes, so an edit is picked up without restarting. A file that fails to
/// compile reports its file and line and does not affect other policies.
public final class PolicyLibrary: PolicyResolver, @unchecked Sendable {
    public let searchPath: [URL]
    public let host: LuaHost
    private let lock = NSLock()
    private var cache: [String: (stamp: FileStamp, policy: LoadedPolicy)] = [:]

    struct FileStamp: Equatable {
        let seconds: Int
        let nanoseconds: Int
        let size: Int
    }

    private let folderPaths: [String]

    public init(searchPath: [URL], budget: PolicyBudget = .standard) throws {
        self.searchPath = searchPath
        folderPaths = searchPath.map { $0.standardizedFileURL.path }
        self.host = try LuaHost(budget: budget)
    }

    /// The folder of built-in policies: `$STACKDAY_BUILTIN_POLICIES`, else the `Policies/` folder
    /// found beside the executable or above it (a checkout), else nil.
    public static func builtInFolder(executable: URL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath(),
                                     environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment["STACKDAY_BUILTIN_POLICIES"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            for candidate in [folder.appendingPathComponent("Policies"), folder.appendingPathComponent("share/stackday/Policies")] {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    return candidate
                }
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
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

    /// Policy names are file names without `.lua`: letters, digits, `-` and `_`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_"
        }
    }

    /// Every policy name on the search path (the first folder wins), sorted.
    public func availableNames() -> [String] {
        var names = Set<String>()
        for folder in searchPath {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for file in files where file.hasSuffix(".lua") {
                let name = String(file.dropLast(4))
                if PolicyLibrary.isValidName(name) { names.insert(name) }
            }
        }
        return names.sorted()
    }

    /// The folder a name resolves from.
    public func folder(of name: String) -> URL? { file(named: name)?.deletingLastPathComponent() }

    /// The compiled policy for `name`, recompiled when its file changed.
    /// Throws `PolicyError` (`.unavailable` listing the known names, or the compile error).
    public func policy(named name: String) throws -> LoadedPolicy {
        guard let path = path(named: name) else {
            let known = availableNames()
            throw PolicyError(policy: name, file: nil, line: nil, kind: .unavailable,
                              message: "no such policy; known: " + (known.isEmpty ? "(none)" : known.joined(separator: ", ")))
        }
        return try load(path: path, name: name)
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
        let file = URL(fileURLWithPath: path)
        let source: String
        do {
            source = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw PolicyError(policy: name, file: path, line: nil, kind: .unavailable, message: "cannot read the file: \(error.localizedDescription)")
        }
        let policy = try LoadedPolicy(name: name, file: file, source: source, host: host)
        cache[path] = (stamp, policy)
        return policy
    }

    /// Binds the policy to a habit, checking it serves `role`.
    public func bind(_ choice: PolicyChoice, role: PolicyRole, startedOn: LocalDay, goal: Double, unit: String) throws -> PolicyBinding {
        let policy = try policy(named: choice.name)
        guard policy.info.roles.contains(role) else {
            throw PolicyError(policy: choice.name, file: policy.file.path, line: nil, kind: .unavailable,
                              message: "cannot serve as a \(role.rawValue) policy (it defines \(Self.roleFunctions(policy.info.roles)))")
        }
        return try policy.bind(parameters: choice.parameters, startedOn: startedOn, goal: goal, unit: unit)
    }

    static func roleFunctions(_ roles: Set<PolicyRole>) -> String {
        let names = PolicyRole.allCases.filter(roles.contains).map(\.functionName)
        return names.isEmpty ? "no role function" : names.joined(separator: ", ")
    }

    public func policies(for habit: Habit) throws -> HabitPolicies {
        let schedule = try bind(habit.schedule, role: .schedule, startedOn: habit.startedOn, goal: habit.goal, unit: habit.unit)
        let progress = try bind(habit.progress, role: .progress, startedOn: habit.startedOn, goal: habit.goal, unit: habit.unit)
        let streak = try bind(habit.streak, role: .streak, startedOn: habit.startedOn, goal: habit.goal, unit: habit.unit)
        return HabitPolicies(
            schedule: LuaSchedulePolicy(binding: schedule),
            progress: LuaProgressPolicy(binding: progress),
            streak: LuaStreakPolicy(binding: streak)
        )
    }
}

extension PolicyRole {
    /// The Lua function that serves the role.
    public var functionName: String {
        switch self {
        case .schedule: "isDue"
        case .progress: "progress"
        case .streak: "streak"
        }
    }
}
