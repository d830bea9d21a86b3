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

    var frame: RunnerFrame {
        var out = RunnerFrame()
        out.byte(status.rawValue)
        out.int(instructions)
        out.int(cpuNanoseconds)
        out.byte(spent?.rawValue ?? 0)
        out.string(text)
        out.raw(flags)
        out.doubles(numbers)
        out.ints(integers)
        out.int(failures.count)
        for failure in failures { out.string(failure) }
        out.bool(answers != nil)
        if let answers { RunnerEvaluation.write(answers, to: &out) }
        out.bool(error != nil)
        if let error {
            out.string(error.kind.rawValue)
            out.string(error.policy)
            out.optionalString(error.file)
            out.int(error.line ?? -1)
            out.string(error.message)
        }
        out.string(trace)
        return out
    }

    init(reading bytes: [UInt8]) throws {
        var reader = RunnerFrameReader(bytes)
        guard let status = Status(rawValue: try reader.byte()) else { throw RunnerFrameError() }
        self.status = status
        instructions = try reader.int()
        cpuNanoseconds = try reader.int()
        spent = RequestShare.Spent(rawValue: try reader.byte())
        text = try reader.string()
        flags = try reader.raw()
        numbers = try reader.doubles()
        integers = try reader.ints()
        let count = try reader.int()
        guard count >= 0, count <= bytes.count else { throw RunnerFrameError() }
        failures = try (0..<count).map { _ in try reader.string() }
        answers = try reader.bool() ? try RunnerEvaluation.readAnswers(&reader) : nil
        if try reader.bool() {
            let kind = PolicyError.Kind(rawValue: try reader.string()) ?? .script
            let policy = try reader.string(), file = try reader.optionalString(), line = try reader.int()
            error = PolicyError(policy: policy, file: file, line: line >= 0 ? line : nil, kind: kind, message: try reader.string())
        }
        trace = try reader.string()
    }
}
