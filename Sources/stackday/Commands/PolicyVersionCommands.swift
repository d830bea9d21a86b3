import Foundation
import StackDay
import StackDayApplication
import StackDayLua

/// `stackday policy install|upgrade|history|rollback` and `policy simulate --habit`: the stored,
/// versioned side of policies.
enum PolicyVersionCommands {
    static let habit = RequestField<String>.text("habit", help: "The habit's name (case-insensitive).").argument("habit", optional: false).commandLineOnly
    static let policyArgument = RequestField<String>.text("policy", help: "A path to a .lua file, or a name: the policy folder's file, else what the name resolves to.")
        .argument("policy", optional: false).commandLineOnly

    /// The policy `policy upgrade` moves habits onto: a policy name.
    static let upgraded = PolicyCommand.name.map { name in
        guard PolicyLibrary.isValidName(name) else { throw RequestError("'\(name)' is not a policy name (letters, digits, - and _, at most 64)") }
        return name
    }

    static var specs: [CommandSpec] {
        [
            CommandSpec(
                name: "install", abstract: "Check a policy in the sandbox, run its examples, then store it by its SHA-256.",
                run: install
            ).taking([policyArgument.declaration]),
            CommandSpec(
                name: "upgrade", abstract: "Install a policy's current file and move every active habit using it onto it.",
                run: upgrade
            ).taking([upgraded.declaration] + RulesFromRequest.fields),
            CommandSpec(name: "history", abstract: "A habit's rule revisions: number, first day, and each role's policy@hash.", run: history)
                .taking([habit.declaration]),
            CommandSpec(
                name: "rollback", abstract: "Write a revision bringing back the rules of an earlier one.",
                run: rollback
            ).taking([habit.declaration] + RollbackRequest.fields),
        ]
    }

    static func install(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let application = try environment.application()
        let library = try environment.library()
        let target = try invocation.required(policyArgument)
        let view: PolicyScriptView
        if CLIEnvironment.isPath(target) {
            guard FileManager.default.fileExists(atPath: target) else { throw CommandFailure("no such file: \(target)") }
            let script = try library.script(at: URL(fileURLWithPath: target), at: environment.clock.now)
            view = try refusing(environment) { try application.install(script.name, source: script.source) }
        } else {
            view = try refusing(environment) { try application.install(named: target) }
        }
        if environment.printedJSON(view) { return }
        environment.io.print(environment.words.say("installed {name} sha256:{hash}", ("name", view.script.name), ("hash", view.script.shortHash)))
    }

    /// Runs `body`; a refused policy prints each failure, then fails with one line.
    static func refusing<T>(_ environment: CLIEnvironment, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let refusal as PolicyRefusal {
            let view = RefusalView(refusal: refusal)
            if !environment.printedJSON(view) { refusal.failures.forEach { environment.io.print("FAIL \($0)") } }
            throw CommandFailure(view.message, code: .policyFailed)
        }
    }

    static func upgrade(_ invocation: Invocation) throws {
        let name = try invocation.required(upgraded)
        let environment = try CLIEnvironment(invocation)
        let context = try environment.context()
        let result = try refusing(environment) { try UpgradePolicy(context: context)(name, from: try invocation.request(RulesFromRequest.self).start) }
        if environment.json {
            return environment.printJSON(.object([
                "name": .string(name), "sha256": .string(result.script.sha256),
                "upgraded": .array(result.upgraded.map { .object(["habit": .string($0.name), "rules": ViewJSON.revision($0.latest)]) }),
                "current": .array(result.current.map { .string($0.name) }),
            ]))
        }
        let words = environment.words
        environment.io.print(words.say("installed {name} sha256:{hash}", ("name", name), ("hash", result.script.shortHash)))
        for habit in result.upgraded {
            environment.io.print(words.say("upgraded '{name}': revision {number} from {day}", ("name", habit.name), ("number", "\(habit.latest.number)"),
                                           ("day", habit.latest.effectiveFrom.iso)))
        }
        for habit in result.current { environment.io.print(words.say("'{name}' already runs it", ("name", habit.name))) }
        if result.upgraded.isEmpty && result.current.isEmpty {
            environment.io.print(words.say("no active habit uses {name}", ("name", name)))
        }
    }

    static func history(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().revisions(invocation.required(habit))
        if environment.printedJSON(view) { return }
        let habit = view.habit
        for revision in habit.revisions {
            let goal = Format.quantity(revision.goal, unit: habit.unit)
            let roles = PolicyRole.habitRoles.map { "\(environment.words[$0.rawValue]) \(HabitCommand.describe(revision.choice(for: $0), pinned: true))" }
            let goalText = "\(environment.words["goal"]) \(goal)"
            var notes: [String] = []
            if let takesBack = revision.takesBack { notes.append(environment.words["takes back revision {n}"].replacingOccurrences(of: "{n}", with: String(takesBack))) }
            if let taker = habit.takenBack(revision.number) { notes.append(environment.words["taken back by revision {n}"].replacingOccurrences(of: "{n}", with: String(taker))) }
            environment.io.print(([String(revision.number), revision.effectiveFrom.iso, goalText] + roles + notes.map { "(\($0))" }).joined(separator: "  "))
        }
    }

    static func rollback(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().rollback(invocation.required(habit), invocation.request())
        if environment.printedJSON(view) { return }
        let written = view.written.map { "\($0.number) (\($0.effectiveFrom.iso))" }.joined(separator: ", ")
        let took = view.habit.revisions[(view.takesBack - 1)..<view.before].map { String($0.number) }.joined(separator: ", ")
        environment.io.print(environment.language == .korean
            ? "되돌렸습니다: '\(view.habit.name)', 개정 \(took)을 되돌리고 그 앞의 규칙을 다시 씁니다: 개정 \(written)"
            : "'\(view.habit.name)': took back revision \(took); the rules before it judge again as revision \(written)")
    }

    /// `policy simulate NAME --habit HABIT`: the habit's figures now and under the proposed policy.
    /// `policy simulate POLICY --group NAME`: the group's figures as stored and proposed.
    static func simulateGroup(_ invocation: Invocation, group: String) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().simulateGroup(group, invocation.request())
        if environment.printedJSON(view) { return try GroupsFailed.check([view.simulation.current, view.simulation.proposed]) }
        let words = environment.words
        let proposed = view.role == .group ? view.simulation.proposal.rule : view.simulation.proposal.streak
        let rule = "\(words[view.role.rawValue]) \(proposed.described(pinned: true))"
        environment.io.print(words.language == .korean
            ? "그룹 '\(view.group)': \(rule), \(view.from.iso)부터, 저장된 규칙과 비교 (아무것도 쓰지 않습니다)"
            : "group '\(view.group)': \(rule) from \(view.from.iso), against the stored rules (nothing is written)")
        func figures(_ result: Result<GroupSummary, GroupFailure>) -> [String] {
            switch result {
            case .success(let summary):
                let stats = summary.statistics
                return [String(stats.streak.current), String(stats.streak.longest), String(stats.completedDays), String(stats.eligibleDays),
                        Format.percent(stats.completionRate), Format.percent(stats.score)]
            case .failure(let failure):
                return [words["error"] + ": " + failure.message] + Array(repeating: "", count: 5)
            }
        }
        let labels = ["current streak", "longest streak", "completed", "eligible", "rate", "score"]
        let current = figures(view.simulation.current), proposal = figures(view.simulation.proposed)
        let rows = [["", "CURRENT", "PROPOSED"].map { words[$0] }] + labels.indices.map { [words[labels[$0]], current[$0], proposal[$0]] }
        Format.table(rows).forEach(environment.io.print)
        for line in view.trace ?? [] { environment.io.print("trace \(line)") }
        try GroupsFailed.check([view.simulation.current, view.simulation.proposed])
    }

    static func simulateHabit(_ invocation: Invocation, habit: String) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().simulate(habit, invocation.request())
        if environment.printedJSON(view) { return }
        let simulation = view.simulation
        let words = environment.words
        let columns: [(String, (HabitStatistics) -> String)] = [
            ("current streak", { String($0.streak.current) }),
            ("longest streak", { String($0.streak.longest) }),
            ("completed", { String($0.completedDays) }),
            ("eligible", { String($0.eligibleDays) }),
            ("rate", { Format.percent($0.completionRate) }),
            ("score", { Format.percent($0.score) }),
        ]
        let proposed = simulation.revision.choice(for: view.role)
        let rule = "\(words[view.role.rawValue]) \(HabitCommand.describe(proposed, pinned: true))", from = simulation.revision.effectiveFrom.iso
        environment.io.print(words.language == .korean
            ? "'\(simulation.current.habit.name)': \(rule), \(from)부터, 저장된 규칙과 비교 (아무것도 쓰지 않습니다)"
            : "'\(simulation.current.habit.name)': \(rule) from \(from), against the stored rules (nothing is written)")
        let rows = [["", "CURRENT", "PROPOSED"].map { words[$0] }] + columns.map { [words[$0.0], $0.1(simulation.current.statistics), $0.1(simulation.proposed.statistics)] }
        Format.table(rows).forEach(environment.io.print)
        for line in view.trace ?? [] { environment.io.print("trace \(line)") }
    }
}
