import StackDay

/// `group explain NAME`, `GET /v1/groups/{name}/explain`: a group's streak fold step by step,
/// `{"group", "from", "to", "current", "longest", "steps": [step…]}`; each step `{"day",
/// "revision", "rule", "state", "progress", "members": [{"name", "state", "progress"}], "before",
/// "after", "why"}`.
public struct GroupExplanationView: JSONView {
    public let explanation: GroupExplanation
    /// What the rules wrote with `trace()`, when asked.
    public let trace: [PolicyTraceLine]?

    public init(_ explanation: GroupExplanation, trace: [PolicyTraceLine]? = nil) {
        self.explanation = explanation
        self.trace = trace
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "group": .string(explanation.group.name), "from": .string(explanation.range.first.iso), "to": .string(explanation.range.last.iso),
            "current": ViewJSON.int(explanation.streak.current), "longest": ViewJSON.int(explanation.streak.longest),
            "steps": .array(explanation.steps.map { step in
                .object([
                    "day": .string(step.entry.day.iso), "revision": ViewJSON.int(step.revision.number), "rule": .string(step.revision.rule.name),
                    "state": .string(step.entry.state.rawValue), "progress": ViewJSON.number(step.entry.progress),
                    "members": .array(step.members.map { member in
                        .object(["name": .string(member.name), "state": .string(member.state.rawValue), "progress": ViewJSON.number(member.progress)])
                    }),
                    "before": step.step.before, "after": step.step.after, "why": .string(Self.why(step, words: Words(.english))),
                ])
            }),
        ]
        if let trace { object["trace"] = ViewJSON.trace(trace) }
        return .object(object)
    }

    /// The rule's own reason when it gave one, else what the day was: `met: 3 of 3`.
    public static func why(_ step: GroupExplanation.Step, words: Words) -> String {
        if let why = step.step.why { return why }
        let done = step.members.filter { $0.state == .completed }.count
        let amount = words.say("{done} of {members}", ("done", String(done)), ("members", String(step.members.count)))
        return ExplanationView.reason(step.entry.state, amount: amount, step: step.step, words: words)
    }

    /// One line per step, as `explain` prints a habit's, marking where the current streak began
    /// and what broke the streak before it.
    public func lines(_ language: ReportLanguage) -> [String] {
        let words = Words(language)
        let rows = explanation.steps.map { step in
            (day: step.entry.day.iso, state: words[step.entry.state == .upcoming ? "notDue" : step.entry.state.rawValue], step: step.step, why: Self.why(step, words: words))
        }
        return ExplanationView.lines(explanation.group.name, range: explanation.range, streak: explanation.streak, unit: .days, rows: rows, words: words)
    }
}
