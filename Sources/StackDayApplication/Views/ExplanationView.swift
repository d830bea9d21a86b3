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
            "policies": .object(Dictionary(uniqueKeysWithValues: PolicyRole.allCases.map { role in
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
        let korean = language == .korean
        let entry = step.entry
        let target = DayTarget(step.revision)
        let amount: String
        if target.limit != nil {
            amount = Words(language).amount(entry.total, of: target, unit: habitUnit)
            if target.wentOver(entry) { return korean ? "한도 초과: \(amount)" : "over the limit: \(amount)" }
        } else if let period = step.period {
            amount = korean ? "\(period.count)/\(period.times)일" : "\(period.count) of \(period.times) day\(period.times == 1 ? "" : "s")"
        } else if korean {
            amount = "\(Quantity.describe(entry.total))/\(Quantity.describe(step.goal))\(WeeklyReportFormatter.koreanUnit(habitUnit))"
        } else {
            amount = "\(Quantity.describe(entry.total)) of \(Quantity.describe(step.goal))" + (habitUnit.isEmpty ? "" : " \(habitUnit)")
        }
        let before = step.step.before.objectValue?["current"]?.numberValue.map { Int($0) } ?? 0
        let ended = before > 0 && step.step.streak.current == 0 ? (korean ? "; 끝난 연속: \(before)" : "; the streak of \(before) ended") : ""
        switch entry.state {
        case .completed: return korean ? "달성: \(amount)" : "met: \(amount)"
        case .missed: return korean ? "놓침: \(amount)\(ended)" : "missed: \(amount)\(ended)"
        case .pending: return korean ? "남음: 지금까지 \(amount); 오늘은 연속을 끊지 않습니다" : "pending: \(amount) so far; today does not break the streak"
        case .skipped: return korean ? "건너뜀: 연속 유지" : "skipped: kept the streak"
        case .notDue, .upcoming: return korean ? "쉬는 날: 연속 그대로" : "not due: the streak is unchanged"
        }
    }

    /// The words form: one line per step, marking where the current streak began and what broke
    /// the streak before it; in Korean the words are Korean, a rule's own reason as the rule wrote it.
    public var lines: [String] { lines(.english) }

    public func lines(_ language: ReportLanguage) -> [String] {
        let words = Words(language)
        let korean = language == .korean
        let steps = explanation.steps
        let unit = explanation.countsIn
        // The current streak began after the last step that left it at 0 (or at the first step).
        var began: Int? = nil
        var broke: Int? = nil
        if explanation.streak.current > 0 {
            let zero = steps.lastIndex { $0.step.streak.current == 0 }
            began = steps.indices.first { $0 > (zero ?? -1) && steps[$0].step.streak.current > 0 }
            broke = zero.flatMap { index in
                (steps[index].step.before.objectValue?["current"]?.numberValue ?? 0) > 0 ? index : nil
            }
        } else {
            broke = steps.lastIndex { ($0.step.before.objectValue?["current"]?.numberValue ?? 0) > 0 && $0.step.streak.current == 0 }
        }
        // A streak already running at the range's first step began before the range: no step shown is its start.
        var beganBefore = false
        if let index = began, (steps[index].step.before.objectValue?["current"]?.numberValue ?? 0) > 0 {
            began = nil
            beganBefore = true
        }
        let range = "\(explanation.range.first) … \(explanation.range.last)"
        var out = [korean
            ? "\(explanation.habit.name): \(range), 현재 \(words.count(explanation.streak.current, unit)), 최장 \(words.count(explanation.streak.longest, unit))"
            : "\(explanation.habit.name): \(range), current \(CountPhrase.english(explanation.streak.current, unit)), longest \(CountPhrase.english(explanation.streak.longest, unit))"]
        for (index, step) in steps.enumerated() {
            let day = step.period == nil ? step.days.last.iso : "\(step.days.first.iso) … \(step.days.last.iso)"
            let state = korean ? words[Self.status(step)] : Self.status(step)
            let padded = state + String(repeating: " ", count: max(0, 9 - DisplayWidth.of(state)))
            let why = Self.why(step, unit: explanation.habit.unit, language: language)
            var line = korean
                ? "\(day)  \(padded)  연속 \(step.step.streak.current) (최장 \(step.step.streak.longest))  \(why)"
                : "\(day)  \(padded)  streak \(step.step.streak.current) (longest \(step.step.streak.longest))  \(why)"
            if index == began { line += korean ? "  ← 현재 연속이 시작된 날" : "  ← the current streak began" }
            if index == broke { line += korean ? "  ✕ 이전 연속을 끊은 날" : "  ✕ what broke the streak before" }
            out.append(line)
        }
        if steps.isEmpty { out.append(korean ? "이 기간에는 결과가 없습니다" : "no outcome in this range") }
        if beganBefore {
            out.append(korean ? "(현재 연속은 \(explanation.range.first) 이전에 시작되었습니다)" : "(the current streak began before \(explanation.range.first))")
        }
        return out
    }
}
