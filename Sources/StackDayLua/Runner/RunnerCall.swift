import StackDay

/// One piece of policy work sent to a runner: the script (its source only when the runner may
/// not hold it), the habit it is bound to, and the days and numbers of one role call over a
/// range; what the request has left of its budget rides along.
struct RunnerCall {
    enum Operation: UInt8 {
        case describe = 1, vet, bind, due, quota, progress, streak, explain, evaluate, group, remind
    }

    /// A script a call runs.
    struct Script {
        var name: String
        /// How errors name the script (a file, `built-in:NAME.lua`, or `NAME.lua@HASH`).
        var file: String
        var sha256: String
        /// Sent when the runner may not have compiled the script yet; it answers `needsSource`
        /// when it was left out and it has not.
        var source: String?
    }

    var operation: Operation
    var share: RequestShare
    /// Whether the call spends what the runner's previous call left of the same request (sent
    /// before that call's answer was read), not `share`.
    var continues = false
    /// Whose call it is, as an opaque key: a runner keeps each owner's instances of scripts apart.
    var owner = ""
    /// The script of a role call, or every script of an evaluation's revisions.
    var scripts: [Script]
    /// An evaluation's habit and days (`PolicyResolver.evaluate`).
    var evaluation: RunnerEvaluation?
    var parametersJSON = ""
    var startedOn = 0
    var goal = 1.0
    var unit = ""
    var first = 0
    var count = 0
    var totals: [Double] = []
    var ordinals: [Int]?
    var status: [UInt8] = []
    var due: [UInt8] = []
    var progress: [Double] = []
    var carry: HabitStreak?
    var keep = 0
    /// A group call's members, in the group's order: their names, units and goals (the days'
    /// statuses, totals and progress are in `status`, `totals`, `progress`, day by day).
    var memberNames: [String] = []
    var memberUnits: [String] = []
    var memberGoals: [Double] = []
    /// Whether the policies' `trace()` writes during the call (the lines come back in the reply).
    var trace = false

    init(_ operation: Operation, share: RequestShare, name: String, file: String, sha256: String) {
        self.operation = operation
        self.share = share
        scripts = [Script(name: name, file: file, sha256: sha256)]
    }

    init(evaluating evaluation: RunnerEvaluation, scripts: [Script], share: RequestShare) {
        operation = .evaluate
        self.share = share
        self.scripts = scripts
        self.evaluation = evaluation
    }

    /// The script of a role call.
    var name: String { scripts.first?.name ?? "" }
    var file: String { scripts.first?.file ?? "" }
    var sha256: String { scripts.first?.sha256 ?? "" }

    /// A call with nothing in it yet, read into field by field.
    init(unread: Void) {
        self.init(.describe, share: RequestShare(instructions: 0, cpuNanoseconds: 0, budget: .standard), name: "", file: "", sha256: "")
        scripts = []
    }
}

extension RunnerCall.Script: RunnerMessage {
    static let messageName = "call's script"
    static let fields: [RunnerField<Self>] = [
        .string(1, "name", \.name), .string(2, "file", \.file), .string(3, "sha256", \.sha256), .optionalString(4, "source", \.source),
    ]

    init(unread: Void) { self.init(name: "", file: "", sha256: "", source: nil) }
}

extension RunnerCall: RunnerMessage {
    static let messageName = "call"
    static let fields: [RunnerField<Self>] = [
        RunnerField(1, "operation", write: { $1.byte($0.operation.rawValue) }, read: { call, reader in
            let raw = try reader.byte()
            guard let operation = Operation(rawValue: raw) else { throw RunnerFrameError(reason: "a call of operation \(raw), which this build does not know") }
            call.operation = operation
        }),
        .int(2, "instructions left", \.share.instructions),
        .int(3, "CPU time left", \.share.cpuNanoseconds),
        .int(4, "request instruction budget", \.share.budget.instructions),
        .int(5, "request CPU budget", \.share.budget.cpuMilliseconds),
        .bool(6, "continues", \.continues),
        .string(7, "owner", \.owner),
        .messages(8, "scripts", \.scripts),
        .optional(9, "evaluation", \.evaluation, write: { $0.write(to: &$1) }, read: { try RunnerEvaluation(reading: &$0) }),
        .string(10, "parameters", \.parametersJSON),
        .int(11, "start", \.startedOn),
        .double(12, "goal", \.goal),
        .string(13, "unit", \.unit),
        .int(14, "first day", \.first),
        .int(15, "day count", \.count),
        .doubles(16, "totals", \.totals),
        .optional(17, "ordinals", \.ordinals, write: { $1.ints($0) }, read: { try $0.ints() }),
        .bytes(18, "statuses", \.status),
        .bytes(19, "due flags", \.due),
        .doubles(20, "progress", \.progress),
        .optional(21, "carried streak", \.carry, write: { $1.int($0.current); $1.int($0.longest) },
                  read: { HabitStreak(current: try $0.int(), longest: try $0.int()) }),
        .int(22, "kept days", \.keep),
        .bool(23, "trace", \.trace),
        .strings(24, "member names", \.memberNames),
        .strings(25, "member units", \.memberUnits),
        .doubles(26, "member goals", \.memberGoals),
    ]
}
