import StackDay

/// A runner's answer to one `RunnerCall`: what the call gave (in the slots its operation uses),
/// or its failure, and the budget it spent.
struct RunnerReply {
    enum Status: UInt8 {
        case ok = 0
        /// The call failed: `error` says how.
        case failed
        /// The runner does not hold the script and was not sent its source: send it again with it.
        case needsSource
        /// A vetted script's examples failed: `failures`.
        case refused
    }

    var status: Status
    var instructions = 0
    var cpuNanoseconds = 0
    var spent: RequestShare.Spent?
    /// describe: the declaration's JSON; bind: the merged parameters; explain: the steps.
    var text = ""
    /// due: 0 or 1 a day.
    var flags: [UInt8] = []
    /// progress: a value a day.
    var numbers: [Double] = []
    /// quota: times, kind, days; streak: current, longest; explain: currents then longests.
    var integers: [Int] = []
    var failures: [String] = []
    var error: PolicyError?
    /// evaluate: every day's answers (and the streak in `integers`, when asked and folded).
    var answers: TimelineAnswers?
    /// What the policies traced, when the call asked (`PolicyTraceLine` lines, as the host writes them).
    var trace = ""

    init(_ status: Status) { self.status = status }

    init(unread: Void) { self.init(.failed) }
}

extension RunnerReply: RunnerMessage {
    static let messageName = "reply"
    static let fields: [RunnerField<Self>] = [
        RunnerField(1, "status", write: { $1.byte($0.status.rawValue) }, read: { reply, reader in
            let raw = try reader.byte()
            guard let status = Status(rawValue: raw) else { throw RunnerFrameError(reason: "a reply of status \(raw), which this build does not know") }
            reply.status = status
        }),
        .int(2, "instructions", \.instructions),
        .int(3, "CPU time", \.cpuNanoseconds),
        RunnerField(4, "budget spent", write: { $1.byte($0.spent?.rawValue ?? 0) }, read: { $0.spent = RequestShare.Spent(rawValue: try $1.byte()) }),
        .string(5, "text", \.text),
        .bytes(6, "flags", \.flags),
        .doubles(7, "numbers", \.numbers),
        .ints(8, "integers", \.integers),
        .strings(9, "failures", \.failures),
        .optional(10, "answers", \.answers, write: { RunnerEvaluation.write($0, to: &$1) }, read: { try RunnerEvaluation.readAnswers(&$0) }),
        .optional(11, "error", \.error, write: { error, out in
            out.string(error.kind.rawValue)
            out.string(error.policy)
            out.optionalString(error.file)
            out.int(error.line ?? -1)
            out.string(error.message)
        }, read: { reader in
            let kind = PolicyError.Kind(rawValue: try reader.string()) ?? .script
            let policy = try reader.string(), file = try reader.optionalString(), line = try reader.int()
            return PolicyError(policy: policy, file: file, line: line >= 0 ? line : nil, kind: kind, message: try reader.string())
        }),
        .string(12, "trace", \.trace),
    ]
}
