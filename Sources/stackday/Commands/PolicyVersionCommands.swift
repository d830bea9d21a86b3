import Foundation
import StackDay
import StackDayExchange
import StackDayLua

/// `stackday policy install|upgrade|history|rollback` and `policy simulate --habit`: the stored,
/// versioned side of policies.
enum PolicyVersionCommands {
    static let habitArgument = ArgumentSpec(name: "habit", help: "The habit's name (case-insensitive).")

    static var specs: [CommandSpec] {
        [
            CommandSpec(
                name: "install", abstract: "Check a policy in the sandbox, run its examples, then store it by its SHA-256.",
                arguments: [ArgumentSpec(name: "policy", help: "A path to a .lua file, or a name found through the policy folder.")],
                run: install
            ),
            CommandSpec(
                name: "upgrade", abstract: "Install a policy's current file and move every active habit using it onto it.",
                arguments: [ArgumentSpec(name: "name", help: "The policy's name.")],
                options: HabitCommand.revisionOptions, run: upgrade
            ),
            CommandSpec(name: "history", abstract: "A habit's rule revisions: number, first day, and each role's policy@hash.",
                        arguments: [habitArgument], run: history),
            CommandSpec(
                name: "rollback", abstract: "Write a revision bringing back the rules of an earlier one.",
                arguments: [habitArgument],
                options: [
                    OptionSpec(name: "to", valueName: "n", help: "The revision whose rules return (default: the one before the latest)."),
                    OptionSpec(name: "from", valueName: "day", help: "The first day they judge again (default: today)."),
                ],
                run: rollback
            ),
        ]
    }

    static func install(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let context = try environment.context()
        let library = try environment.library()
        let target = invocation.required("policy")
        let script: PolicyScript
        if target.hasSuffix(".lua") || target.contains("/") {
            guard FileManager.default.fileExists(atPath: target) else { throw CommandFailure("no such file: \(target)") }
            script = try library.script(at: URL(fileURLWithPath: target), at: environment.clock.now)
        } else {
            guard let found = try library.currentScript(named: target, at: environment.clock.now) else {
                _ = try library.policy(named: target) // names the known policies
                throw CommandFailure("no policy named \(target)")
            }
            script = found
        }
        let stored = try refusing(environment) { try InstallPolicy(context: context)(name: script.name, source: script.source) }
        if environment.json {
            return environment.printJSON(JSONOutput.installed(stored))
        }
        environment.io.print("installed \(stored.name) sha256:\(stored.shortHash)")
    }

    /// Runs `body`; a refused policy prints each failure, then fails with one line.
    static func refusing<T>(_ environment: CLIEnvironment, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let refusal as PolicyRefusal {
            if environment.json {
                environment.printJSON(JSONOutput.refusal(refusal))
            } else {
                refusal.failures.forEach { environment.io.print("FAIL \($0)") }
            }
            let count = refusal.failures.count
            throw CommandFailure("policy \(refusal.policy) was not installed: \(count) check\(count == 1 ? "" : "s") failed")
        }
    }

    static func upgrade(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let context = try environment.context()
        let name = invocation.required("name")
        let result = try refusing(environment) { try UpgradePolicy(context: context)(name, from: try HabitCommand.revisionStart(invocation)) }
        if environment.json {
            return environment.printJSON(.object([
                "name": .string(name), "sha256": .string(result.script.sha256),
                "upgraded": .array(result.upgraded.map { .object(["habit": .string($0.name), "rules": JSONOutput.revision($0.latest)]) }),
                "current": .array(result.current.map { .string($0.name) }),
            ]))
        }
        environment.io.print("installed \(name) sha256:\(result.script.shortHash)")
        for habit in result.upgraded {
            environment.io.print("upgraded '\(habit.name)': revision \(habit.latest.number) from \(habit.latest.effectiveFrom.iso)")
        }
        for habit in result.current { environment.io.print("'\(habit.name)' already runs it") }
        if result.upgraded.isEmpty && result.current.isEmpty { environment.io.print("no active habit uses \(name)") }
    }

    static func history(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let habit = try FindHabit(context: try environment.context())(named: invocation.required("habit"))
        if environment.json {
            return environment.printJSON(JSONOutput.history(habit))
        }
        for revision in habit.revisions {
            let goal = Format.quantity(revision.goal, unit: habit.unit)
            let roles = PolicyRole.allCases.map { "\($0.rawValue) \(HabitCommand.describe(revision.choice(for: $0), pinned: true))" }
            environment.io.print(([String(revision.number), revision.effectiveFrom.iso, "goal \(goal)"] + roles).joined(separator: "  "))
        }
    }

    static func rollback(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        var number: Int? = nil
        if let text = invocation.option("to") {
            guard let value = Int(text), value >= 1 else { throw invocation.usage("invalid value for --to: '\(text)' is not a revision number") }
            number = value
        }
        let from = try invocation.day("from").map(RevisionStart.day) ?? .today
        let habit = try RollBackRules(context: try environment.context())(.name(invocation.required("habit")), to: number, from: from)
        let latest = habit.latest
        if environment.json { return environment.printJSON(JSONOutput.rules(habit)) }
        // The target RollBackRules used: the one named, else the one before the latest of then.
        let restored = number ?? latest.number - 2
        environment.io.print("'\(habit.name)': revision \(latest.number) brings back the rules of revision \(restored) from \(latest.effectiveFrom.iso)")
    }

    /// `policy simulate NAME --habit HABIT`: the habit's figures now and under the proposed policy.
    static func simulateHabit(_ invocation: Invocation, habit: String) throws {
        let environment = try CLIEnvironment(invocation)
        let context = try environment.context()
        let name = invocation.required("name")
        var parameters: [String: JSONValue]? = nil
        if let text = invocation.option("params") {
            do { parameters = try PolicyChoice(name: name, parametersJSON: text).parameters } catch { throw invocation.usage("invalid value for --params: \(error)") }
        }
        let role = try simulatedRole(invocation, environment: environment, policy: name)
        let from = try invocation.day("from").map(RevisionStart.day) ?? .retroactive
        let simulation = try SimulatePolicy(context: context)(.name(habit), policy: name, role: role, parameters: parameters, from: from)
        let columns: [(String, (HabitStatistics) -> JSONValue, (HabitStatistics) -> String)] = [
            ("current streak", { JSONOutput.int($0.streak.current) }, { String($0.streak.current) }),
            ("longest streak", { JSONOutput.int($0.streak.longest) }, { String($0.streak.longest) }),
            ("completed", { JSONOutput.int($0.completedDays) }, { String($0.completedDays) }),
            ("eligible", { JSONOutput.int($0.eligibleDays) }, { String($0.eligibleDays) }),
            ("rate", { JSONOutput.number($0.completionRate) }, { Format.percent($0.completionRate) }),
            ("score", { JSONOutput.number($0.score) }, { Format.percent($0.score) }),
        ]
        if environment.json {
            return environment.printJSON(JSONOutput.simulation(simulation, role: role))
        }
        let proposed = simulation.revision.choice(for: role)
        environment.io.print("'\(simulation.current.habit.name)': \(role.rawValue) \(HabitCommand.describe(proposed, pinned: true)) from \(simulation.revision.effectiveFrom.iso), against the stored rules (nothing is written)")
        let rows = [["", "CURRENT", "PROPOSED"]] + columns.map { [$0.0, $0.2(simulation.current.statistics), $0.2(simulation.proposed.statistics)] }
        Format.table(rows).forEach(environment.io.print)
    }

    /// `--role`, else the one role the policy serves.
    static func simulatedRole(_ invocation: Invocation, environment: CLIEnvironment, policy name: String) throws -> PolicyRole {
        if let text = invocation.option("role") {
            guard let role = PolicyRole(rawValue: text) else { throw invocation.usage("invalid value for --role: '\(text)' (use schedule, progress or streak)") }
            return role
        }
        let roles = PolicyRole.allCases.filter(try environment.library().policy(named: name).info.roles.contains)
        guard roles.count == 1 else {
            throw invocation.usage("policy \(name) serves \(roles.map(\.rawValue).joined(separator: ", ")); say which with --role")
        }
        return roles[0]
    }
}
