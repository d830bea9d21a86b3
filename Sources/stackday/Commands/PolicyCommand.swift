import Foundation
import StackDay
import StackDayApplication
import StackDayExchange
import StackDayLua

/// `stackday policy …`: list, show, check, preview and simulate policies (reading the policy
/// folder live), and the stored side: install, upgrade, history, rollback.
enum PolicyCommand {
    /// The policy a command acts on: the first argument.
    static let name = RequestField<String>.text("name", help: "The policy's name.").argument("name", optional: false).commandLineOnly
    static let checked = RequestField<String>.text("policy", help: "A policy name or a path to a .lua file.").argument("policy", optional: false).commandLineOnly
    static let schedule = RequestField<String>.text("name", help: "The schedule: a policy, words such as \"mon wed fri\", or a pasted calendar rule.")
        .argument("name", optional: false).commandLineOnly
    static let start = RequestField<LocalDay>.day("start", help: "The habit start the policy sees (default: --from).").commandLineOnly
    static let from = RequestField<LocalDay>.day("from", help: "The first day shown (default: the first of this month).").commandLineOnly
    static let to = RequestField<LocalDay>.day("to", help: "The last day shown (default: the end of the second month after --from's).").commandLineOnly
    static let history = RequestField<String>.text("history", help: "The history, e.g. YYN-Y.", valueName: "pattern").commandLineOnly
    static let habit = RequestField<String>.text("habit", help: "Simulate over this habit's real history.", valueName: "name").commandLineOnly
    static let group = RequestField<String>.text("group", help: "Simulate over this group's real history (a group or streak rule).", valueName: "name")
        .commandLineOnly
    static let ending = RequestField<LocalDay>.day("ending", help: "The last day of the history (default: yesterday); --from or --ending, not both.")
        .commandLineOnly

    static var spec: CommandSpec {
        CommandSpec(name: "policy", abstract: "Inspect, check and try out Lua policies.", subcommands: [
            CommandSpec(name: "list", abstract: "Every policy you can name: where it is found (installed, folder, published, shared, built-in), its hash, roles and description.", run: list),
            CommandSpec(name: "show", abstract: "A policy's description, roles, parameters and examples, then the source in use (a name or a .lua file).", run: show)
                .taking([checked.declaration]),
            CommandSpec(name: "check", abstract: "Compile a policy, check its roles and run its examples.", run: check).taking([checked.declaration]),
            CommandSpec(
                name: "preview", abstract: "The due days of a schedule policy over a range, as month grids.",
                run: preview
            ).taking([schedule.declaration, SimulateRequest.params.declaration, start.declaration, from.declaration, to.declaration]),
            CommandSpec(
                name: "simulate", abstract: "Run a streak rule over a history, or a habit's real history under a proposed policy.",
                discussion: """
                With --history, PATTERN marks one day per character: Y met, N missed, - skipped, . not due, P pending.
                With --habit, the habit's figures today are shown as stored and with the policy (the folder's current
                file) serving --role from --from (default: the habit's start); nothing is written. With --group, the
                same of a group, the policy serving its group rule or its streak rule.
                """,
                run: simulate
            ).taking([SimulateRequest.policy.declaration, SimulateRequest.params.declaration, history.declaration, habit.declaration, group.declaration,
                      SimulateRequest.role.declaration, SimulateRequest.from.declaration, ending.declaration, SimulateRequest.trace.declaration]),
        ] + PolicyAuthoringCommands.specs + PolicyVersionCommands.specs)
    }

    static func list(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try Application(context: try environment.directory().context).policyList()
        if environment.printedJSON(view) { return }
        let words = environment.words
        var rows: [[String]] = [["NAME", "SOURCE", "SHA256", "ROLES", "DESCRIPTION"].map { words[$0] }]
        for entry in view.entries {
            let policy = entry.policy
            var source = policy.sharedBy.map { words["shared by {name}"].replacingOccurrences(of: "{name}", with: $0) } ?? words[policy.source.rawValue]
            if let file = policy.file { source += " (\(file))" }
            if !entry.inUse { source += ", " + words["not in use"] }
            rows.append([policy.name, source, policy.script.shortHash, entry.roles.map(\.rawValue).joined(separator: ","),
                         entry.error.map { "error: \($0)" } ?? entry.listing?.description ?? ""])
        }
        Format.table(rows).forEach(environment.io.print)
    }

    static func show(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let (policy, resolved) = try environment.policy(invocation.required(checked))
        let roles = PolicyRole.allCases.filter(policy.info.roles.contains).map(\.rawValue)
        if environment.json {
            return environment.printJSON(.object([
                "name": .string(policy.name), "file": .string(policy.file), "roles": .array(roles.map(JSONValue.string)),
                "description": .string(policy.info.description), "params": .object(policy.info.defaults), "examples": .array(policy.info.examples),
                "paramsSchema": policy.info.parameterSchema.jsonSchema,
                "source": .string(policy.source), "sha256": .string(policy.sha256.description),
                "origin": .string(resolved?.source.rawValue ?? "file"),
            ]))
        }
        let words = environment.words
        let lines = [
            [words["name"], policy.name], [words["file"], policy.file], ["sha256", policy.sha256.description],
            [words["SOURCE"].lowercased(), resolved?.sourceText ?? "file"], [words["roles"], roles.joined(separator: ", ")],
            [words["description"], policy.info.description], [words["params"], JSONValue.object(policy.info.defaults).jsonText],
            [words["examples"], "\(policy.info.examples.count)"],
        ]
        Format.table(lines).forEach(environment.io.print)
        for example in policy.info.examples { environment.io.print("  " + example.jsonText) }
        let parameters = policy.info.parameterSchema.parameters
        environment.io.print(words[parameters.isEmpty ? "parameters: none" : "parameters:"])
        Format.table(parameters.map { parameter in
            [parameter.name, parameter.kind?.rawValue ?? "any", parameter.required ? "required" : parameter.defaultValue.map { "default \($0.jsonText)" } ?? "optional",
             Self.bounds(parameter), parameter.description]
        }).forEach { environment.io.print("  " + $0) }
        environment.io.print()
        environment.io.write(policy.source.hasSuffix("\n") ? policy.source : policy.source + "\n")
    }

    /// A parameter's allowed values or range, as `policy show` prints it.
    static func bounds(_ parameter: PolicyParameterSchema.Parameter) -> String {
        if let allowed = parameter.allowed { return "one of " + allowed.map(\.jsonText).joined(separator: ", ") }
        switch (parameter.minimum, parameter.maximum) {
        case let (low?, high?): return "\(JSONValue.number(low).jsonText)…\(JSONValue.number(high).jsonText)"
        case let (low?, nil): return ">= \(JSONValue.number(low).jsonText)"
        case let (nil, high?): return "<= \(JSONValue.number(high).jsonText)"
        default: return parameter.minItems.map { "at least \($0) item\($0 == 1 ? "" : "s")" } ?? ""
        }
    }

    static func check(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let library = try environment.library()
        let policy = try environment.policy(invocation.required(checked)).policy
        let report = PolicyChecker(library: library).check(policy)
        if environment.json {
            environment.printJSON(.object([
                "policy": .string(report.policy), "file": .string(report.file), "roles": .array(report.roles.map { .string($0.rawValue) }),
                "loaded": .bool(true), "examples": ViewJSON.int(report.examples), "passed": ViewJSON.int(report.passed),
                "failures": .array(report.failures.map(JSONValue.string)),
            ]))
        } else {
            let roles = report.roles.map { environment.words[$0.rawValue] }.joined(separator: ", ")
            if environment.language == .korean {
                let examples = report.examples == 0 ? "실행할 예시 없음" : "예시 \(report.examples)개 중 \(report.passed)개 통과"
                environment.io.print("\(report.policy) (\(report.file)): 역할 \(roles); 샌드박스에서 불러옴; \(examples)")
            } else {
                let examples = report.examples == 0 ? "no examples to run"
                    : "\(report.passed) of \(report.examples) example\(report.examples == 1 ? "" : "s") passed"
                environment.io.print("\(report.policy) (\(report.file)): roles \(roles); loads in the sandbox; \(examples)")
            }
            for failure in report.failures { environment.io.print("FAIL \(failure)") }
        }
        if !report.isSuccess {
            throw CommandFailure("\(report.failures.count) check\(report.failures.count == 1 ? "" : "s") failed in \(report.policy)", code: .policyFailed)
        }
    }

    /// `policy` bound to the parameters given (`--params`, or `choice`'s), checked against its schema.
    static func binding(_ invocation: Invocation, policy: LoadedPolicy, start: LocalDay, choice: PolicyChoice? = nil) throws -> PolicyBinding {
        let parameters = try choice?.parameters ?? givenParameters(invocation) ?? [:]
        try policy.info.parameterSchema.check(parameters, policy: policy.name)
        return try policy.bind(parameters: parameters, startedOn: start, goal: 1, unit: "")
    }

    /// `--params` as a JSON object, or nil when not given.
    static func givenParameters(_ invocation: Invocation) throws -> [String: JSONValue]? {
        try invocation[SimulateRequest.params]
    }

    static func preview(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        // Without them: this month and the next two (from --from's month when only it is given).
        let from = try invocation[Self.from] ?? environment.today.startOfMonth
        let to = try invocation[Self.to] ?? Self.endOfSecondMonthAfter(from)
        guard from <= to else { throw invocation.usage("--from \(from) is after --to \(to)") }
        let range = LocalDayRange(from, to)
        guard range.count <= 366 * 50 else { throw invocation.usage("the range has \(range.count) days; preview at most 50 years") }
        // The name may be words ("mon wed fri") or a pasted calendar rule, read as `habit add` reads them.
        let directory = try environment.directory()
        let given = try invocation.required(schedule)
        let isFile = CLIEnvironment.isPath(given)
        let input = try ScheduleInput(isFile ? "daily" : given, parameters: try givenParameters(invocation), timeZone: environment.boundary.timeZone,
                                      habitStart: try invocation[start], isPolicy: { name in ((try? directory.context.store.read { try directory.find(name, in: $0) }) ?? nil) != nil })
        let policy = try environment.policy(isFile ? given : input.choice.name).policy
        let name = policy.name
        guard policy.info.roles.contains(.schedule) else { throw CommandFailure("policy \(name) defines no isDue; it is not a schedule") }
        let start = try invocation[start] ?? input.start ?? from
        let due = try binding(invocation, policy: policy, start: start, choice: input.choice).dueDays(range)
        let dueDays = zip(range, due).filter(\.1).map(\.0)
        if environment.json {
            return environment.printJSON(.object([
                "policy": .string(name), "params": .object(input.choice.parameters), "due": .array(dueDays.map { .string($0.iso) }),
            ]))
        }
        if input.wasRead { environment.io.print(input.shown) }
        MonthGrid(range: range, marked: Set(dueDays), korean: environment.language == .korean).lines().forEach(environment.io.print)
        environment.io.print(environment.words.say("{days} from {from} to {to}.", ("days", "\(dueDays.count) due day\(dueDays.count == 1 ? "" : "s")"),
                                                   ("count", "\(dueDays.count)"), ("from", "\(from)"), ("to", "\(to)")))
    }

    /// The last day of the second month after `day`'s: three months shown in all.
    static func endOfSecondMonthAfter(_ day: LocalDay) -> LocalDay {
        var (year, month) = (day.year, day.month + 3)
        if month > 12 { (year, month) = (year + 1, month - 12) }
        return ((try? LocalDay(year: year, month: month, day: 1))?.adding(days: -1)) ?? .latest
    }

    static func simulate(_ invocation: Invocation) throws {
        let pattern = try invocation[history]
        let habit = try invocation[habit], group = try invocation[group]
        if habit != nil && group != nil { throw invocation.usage("--habit and --group cannot be used together") }
        if let habit {
            guard pattern == nil else { throw invocation.usage("--history and --habit cannot be used together") }
            return try PolicyVersionCommands.simulateHabit(invocation, habit: habit)
        }
        if let group {
            guard pattern == nil else { throw invocation.usage("--history and --group cannot be used together") }
            return try PolicyVersionCommands.simulateGroup(invocation, group: group)
        }
        let asked = try invocation.request(SimulateRequest.self)
        if asked.role != nil { throw invocation.usage("--role applies to --habit") }
        let environment = try CLIEnvironment(invocation)
        guard let history = pattern else { throw invocation.usage("missing value for --history or --habit") }
        // The history ends yesterday unless told otherwise: today is still open.
        let given = try invocation[ending]
        if asked.from != nil && given != nil { throw invocation.usage("--from and --ending cannot be used together") }
        let ending = given ?? environment.today.adding(days: -1)
        let from = asked.from ?? ending.adding(days: 1 - max(1, history.count))
        let policy = try environment.policy(asked.policy).policy
        let name = policy.name
        guard policy.info.roles.contains(.streak) else { throw CommandFailure("policy \(name) defines no streak; it is not a streak rule") }
        let steps: [StreakSimulator.Step], trace: [PolicyTraceLine]
        do {
            (steps, trace, _) = try environment.library().host().authoring(tracing: asked.trace) {
                try StreakSimulator(binding: binding(invocation, policy: policy, start: from)).simulate(pattern: history, from: from)
            }
        } catch let error as HistoryPattern.Error {
            throw invocation.usage("invalid value for --history: \(error)")
        }
        let final = steps.last?.streak ?? HabitStreak(current: 0, longest: 0)
        if environment.json {
            return environment.printJSON(.object([
                "policy": .string(name),
                "steps": .array(steps.map {
                    .object(["day": .string($0.day.iso), "status": .string($0.outcome.status.rawValue),
                             "current": ViewJSON.int($0.streak.current), "longest": ViewJSON.int($0.streak.longest)])
                }),
                "current": ViewJSON.int(final.current), "longest": ViewJSON.int(final.longest),
                "from": .string(from.iso), "to": .string((steps.last?.day ?? from).iso),
            ].merging(asked.trace ? ["trace": ViewJSON.trace(trace)] : [:]) { $1 }))
        }
        let words = environment.words
        let rows = [["DAY", "OUTCOME", "CURRENT", "LONGEST"].map { words[$0] }] + steps.map {
            [$0.day.iso, words[$0.outcome.status.rawValue], String($0.streak.current), String($0.streak.longest)]
        }
        Format.table(rows).forEach(environment.io.print)
        let last = (steps.last?.day ?? from).iso
        environment.io.print(words.say("current {current}, longest {longest}, after the history {from} … {last}", ("current", "\(final.current)"),
                                       ("longest", "\(final.longest)"), ("from", "\(from)"), ("last", "\(last)")))
        for line in trace { environment.io.print("trace \(line)") }
    }
}
