import StackDay

/// `explain NAME`, `GET /v1/habits/{name}/explain`: the streak fold step by step,
/// `{"habit", "from", "to", "countsIn", "current", "longest", "steps": [step…]}`; each step
/// `{"day", ("first", "last" for a period,) "revision", "policies", "due", "total", "goal",
/// "progress", "outcome": {"status", "met"}, "before", "after", "why"}`.
public struct ExplanationView: JSONView {
    public let explanation: HabitExplanation
    /// What the rules wrote with `trace()`, when asked (`trace`).
    public let trace: [PolicyTraceLine]?

    public init(_ explanation: HabitExplanation, trace: [PolicyTraceLine]? = nil) {
        self.explanation = explanation
        self.trace = trace
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "habit": .string(explanation.habit.name), "from": .string(explanation.range.first.iso), "to": .string(explanation.range.last.iso),
            "countsIn": .string(explanation.countsIn.rawValue),
            "current": ViewJSON.int(explanation.streak.current), "longest": ViewJSON.int(explanation.streak.longest),
            "steps": .array(explanation.steps.map { Self.step($0, unit: explanation.habit.unit) }),
        ]
        if let trace { object["trace"] = ViewJSON.trace(trace) }
        return .object(object)
    }

    static func status(_ step: HabitExplanation.Step) -> String {
        step.entry.state == .upcoming ? "notDue" : ViewJSON.state(step.entry, target: DayTarget(step.revision))
    }

    static func step(_ step: HabitExplanation.Step, unit: String) -> JSONValue {
        var object: [String: JSONValue] = [
            "day": .string(step.days.last.iso), "revision": ViewJSON.int(step.revision.number),
            "policies": .object(Dictionary(uniqueKeysWithValues: PolicyRole.habitRoles.map { role in
                let choice = step.revision.choice(for: role)
                return (role.rawValue, .string(choice.sha256.map { "\(choice.name)@\($0)" } ?? choice.name))
            })),
            "due": .bool(step.entry.isDue), "total": ViewJSON.number(step.entry.total), "goal": ViewJSON.number(step.goal),
            "limit": DayTarget(step.revision).limit.map(ViewJSON.number) ?? .null,
            "progress": ViewJSON.number(step.entry.progress),
            "outcome": .object(["status": .string(status(step)), "met": .bool(step.entry.state == .completed)]),
            "before": step.step.before, "after": step.step.after, "why": .string(why(step, unit: unit)),
        ]
        if step.period != nil {
            object["first"] = .string(step.days.first.iso)
            object["last"] = .string(step.days.last.iso)
        }
        return .object(object)
    }

    /// One sentence a person reads: the rule's own when it gave one (as its script wrote it),
    /// else what the outcome was, in `language`.
    static func why(_ step: HabitExplanation.Step, unit habitUnit: String, language: ReportLanguage = .english) -> String {
        if let why = step.step.why { return why }
        let words = Words(language)
        let entry = step.entry
        let target = DayTarget(step.revision)
        let amount: String
        if target.limit != nil {
            amount = words.amount(entry.total, of: target, unit: habitUnit)
            if target.wentOver(entry) { return words.say("over the limit: {amount}", ("amount", amount)) }
        } else if let period = step.period {
            amount = words.say(period.times == 1 ? "{done} of {times} day" : "{done} of {times} days",
                               ("done", String(period.count)), ("times", String(period.times)))
        } else {
            amount = words.say("{total} of {goal}{unit}", ("total", Quantity.describe(entry.total)), ("goal", Quantity.describe(step.goal)),
                               ("unit", words.unitAfterNumber(habitUnit)))
        }
        return reason(entry.state, amount: amount, step: step.step, words: words)
    }

    /// What happened on a day in words, from its state and amount (`met: 3 of 8 cups`), saying
    /// when a missed day ended a streak.
    static func reason(_ state: EntryState, amount: String, step: StreakStep, words: Words) -> String {
        let before = step.before.objectValue?["current"]?.numberValue.map { Int($0) } ?? 0
        let ended = before > 0 && step.streak.current == 0 ? words.say("; the streak of {before} ended", ("before", String(before))) : ""
        switch state {
        case .completed: return words.say("met: {amount}", ("amount", amount))
        case .missed: return words.say("missed: {amount}{ended}", ("amount", amount), ("ended", ended))
        case .pending: return words.say("pending: {amount} so far; today does not break the streak", ("amount", amount))
        case .skipped: return words["skipped: kept the streak"]
        case .notDue, .upcoming: return words["not due: the streak is unchanged"]
        }
    }

    /// Which step the current streak began at and which one broke the streak before it, among the
    /// steps shown; `beganBefore` when the current streak was already running at the first one.
    static func marks(_ steps: [StreakStep], current: Int) -> (began: Int?, broke: Int?, beganBefore: Bool) {
        func before(_ step: StreakStep) -> Double { step.before.objectValue?["current"]?.numberValue ?? 0 }
        var began: Int? = nil
        var broke: Int? = nil
        if current > 0 {
            // The current streak began after the last step that left it at 0 (or at the first step).
            let zero = steps.lastIndex { $0.streak.current == 0 }
            began = steps.indices.first { $0 > (zero ?? -1) && steps[$0].streak.current > 0 }
            broke = zero.flatMap { before(steps[$0]) > 0 ? $0 : nil }
        } else {
            broke = steps.lastIndex { before($0) > 0 && $0.streak.current == 0 }
        }
        // A streak already running at the range's first step began before the range: no step shown is its start.
        if let index = began, before(steps[index]) > 0 { return (nil, broke, true) }
        return (began, broke, false)
    }

    /// The words form: one line per step, marking where the current streak began and what broke
    /// the streak before it; in Korean the words are Korean, a rule's own reason as the rule wrote it.
    public var lines: [String] { lines(.english) }

    public func lines(_ language: ReportLanguage) -> [String] {
        let words = Words(language)
        let rows = explanation.steps.map { step in
            (day: step.period == nil ? step.days.last.iso : "\(step.days.first.iso) … \(step.days.last.iso)", state: words[Self.status(step)],
             step: step.step, why: Self.why(step, unit: explanation.habit.unit, language: language))
        }
        return Self.lines(explanation.habit.name, range: explanation.range, streak: explanation.streak, unit: explanation.countsIn, rows: rows, words: words)
    }

    /// A fold's lines: a heading, then one line per step with its state, the streak after it and
    /// why, marking where the current streak began and what broke the streak before it.
    static func lines(_ name: String, range: LocalDayRange, streak: HabitStreak, unit: CountUnit,
                      rows: [(day: String, state: String, step: StreakStep, why: String)], words: Words) -> [String] {
        let (began, broke, beganBefore) = marks(rows.map(\.step), current: streak.current)
        var out = [words.say("{habit}: {first} … {last}, current {current}, longest {longest}", ("habit", name),
                             ("first", range.first.iso), ("last", range.last.iso),
                             ("current", words.count(streak.current, unit)), ("longest", words.count(streak.longest, unit)))]
        for (index, row) in rows.enumerated() {
            let padded = row.state + String(repeating: " ", count: max(0, 9 - DisplayWidth.of(row.state)))
            var line = words.say("{day}  {state}  streak {current} (longest {longest})  {why}", ("day", row.day), ("state", padded),
                                 ("current", String(row.step.streak.current)), ("longest", String(row.step.streak.longest)), ("why", row.why))
            if index == began { line += words["  ← the current streak began"] }
            if index == broke { line += words["  ✕ what broke the streak before"] }
            out.append(line)
        }
        if rows.isEmpty { out.append(words["no outcome in this range"]) }
        if beganBefore { out.append(words.say("(the current streak began before {first})", ("first", range.first.iso))) }
        return out
    }
}
