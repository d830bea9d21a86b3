import Foundation
import StackDay
import StackDayLua

/// P2: the `rrule` policy against python-dateutil: 10-year expansions and point queries.
struct RRuleBenchmark {
    let context: BenchContext

    struct Rule {
        let start: LocalDay
        let rule: String
    }

    func rules() throws -> [Rule] {
        let file = context.repository.appendingPathComponent("Tests/StackDayLuaTests/Fixtures/rrule-cases.json")
        guard case .array(let items) = try JSONValue(parsing: try String(contentsOf: file, encoding: .utf8)) else { throw BenchError("P2: no rules") }
        return try items.compactMap { item in
            guard let fields = item.objectValue, case .string(let start)? = fields["start"], case .string(let rule)? = fields["rule"] else { return nil }
            return Rule(start: try LocalDay(iso: start), rule: rule)
        }
    }

    func run() throws -> [Figure] {
        guard BenchContext.has("python3") else { return [] }
        let rules = try rules()
        let years = context.quick ? 1 : 10
        let queries = context.quick ? 5 : 200
        let library = try PolicyLibrary(searchPath: [context.policies])
        let policy = try library.policy(named: "rrule")

        var engineDue = 0
        let expansion = try Measure.best(7) {
            engineDue = 0
            for rule in rules {
                // A fresh host each time would also time compiling; binding a new rule text is what a habit pays.
                let binding = try policy.bind(parameters: ["rule": .string(rule.rule)], startedOn: rule.start, goal: 1, unit: "")
                let range = LocalDayRange(rule.start, rule.start.adding(days: 365 * years + years / 4))
                engineDue += try binding.dueDays(range).reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        // Point queries: days spread over the window, each its own call.
        var generator = SplitMix(seed: 42)
        let bindings = try rules.map { try policy.bind(parameters: ["rule": .string($0.rule)], startedOn: $0.start, goal: 1, unit: "") }
        var pointDays: [[LocalDay]] = []
        for rule in rules {
            pointDays.append((0..<queries).map { _ in rule.start.adding(days: Int(generator.next() % UInt64(365 * years))) })
        }
        let pointSeconds = try Measure.best(3) {
            for (index, binding) in bindings.enumerated() {
                for day in pointDays[index] { _ = try binding.dueDays(LocalDayRange(day, day)) }
            }
        }
        let engineQPS = Double(rules.count * queries) / pointSeconds

        let script = try context.write("p2.py", pythonBaseline(rules: rules, years: years, pointDays: pointDays.map { Array($0.prefix(context.quick ? 2 : 20)) }))
        let run = try Measure.bestRun(1, "python3", [script])
        let parts = run.stdout.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        guard parts.count == 3, let seconds = Double(parts[0]), let due = Int(parts[1]), let pythonQPS = Double(parts[2]) else {
            throw BenchError("P2: unexpected output from python3: \(run.stdout)")
        }
        guard due == engineDue else { throw BenchError("P2: dateutil found \(due) occurrences, the engine \(engineDue)") }
        return [
            Figure(id: "P2", compared: "rrule, \(rules.count) rules × \(years) years expanded: python-dateutil ÷ the engine",
                   engine: Table.seconds(expansion), baseline: Table.seconds(seconds), ratio: seconds / expansion, target: "≥ 10×", met: seconds / expansion >= 10),
            Figure(id: "P2q", compared: "rrule point queries per second: the engine ÷ python-dateutil",
                   engine: "\(Int(engineQPS))/s", baseline: "\(Int(pythonQPS))/s", ratio: engineQPS / pythonQPS, target: "≥ 1000×", met: engineQPS / pythonQPS >= 1000),
        ]
    }

    func pythonBaseline(rules: [Rule], years: Int, pointDays: [[LocalDay]]) -> String {
        let list = rules.enumerated().map { index, rule in
            "(\"\(rule.start.iso)\", \"\(rule.rule)\", [\(pointDays[index].map { "\"\($0.iso)\"" }.joined(separator: ","))])"
        }.joined(separator: ",\n    ")
        return """
        import datetime, time
        from dateutil.rrule import rrulestr
        RULES = [
            \(list)
        ]
        YEARS = \(years)
        def window(start):
            return start + datetime.timedelta(days=365 * YEARS + YEARS // 4)
        best = None
        for _ in range(7):
            begin = time.perf_counter()
            due = 0
            for start, rule, _ in RULES:
                s = datetime.datetime.fromisoformat(start)
                due += len(rrulestr(rule, dtstart=s).between(s, window(s), inc=True))
            elapsed = time.perf_counter() - begin
            best = elapsed if best is None else min(best, elapsed)
        queries = 0
        begin = time.perf_counter()
        for start, rule, days in RULES:
            r = rrulestr(rule, dtstart=datetime.datetime.fromisoformat(start))
            for day in days:
                d = datetime.datetime.fromisoformat(day)
                r.between(d, d, inc=True)
                queries += 1
        qps = queries / (time.perf_counter() - begin)
        print("%.6f %d %.3f" % (best, due, qps))
        """
    }
}

/// A small deterministic generator, so both sides query the same days.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
