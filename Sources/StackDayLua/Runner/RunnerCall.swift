import StackDay

/// One piece of policy work sent to a runner: the script (its source only when the runner may
/// not hold it), the habit it is bound to, and the days and numbers of one role call over a
/// range; what the request has left of its budget rides along.
struct RunnerCall {
    enum Operation: UInt8 {
        case describe = 1, vet, bind, due, quota, progress, streak, explain, evaluate
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

    var frame: RunnerFrame {
        var out = RunnerFrame()
        out.byte(operation.rawValue)
        out.int(share.instructions)
        out.int(share.cpuNanoseconds)
        out.int(share.budget.instructions)
        out.int(share.budget.cpuMilliseconds)
        out.bool(continues)
        out.string(owner)
        out.int(scripts.count)
        for script in scripts {
            out.string(script.name)
            out.string(script.file)
            out.string(script.sha256)
            out.optionalString(script.source)
        }
        out.bool(evaluation != nil)
        evaluation?.write(to: &out)
        out.string(parametersJSON)
        out.int(startedOn)
        out.double(goal)
        out.string(unit)
        out.int(first)
        out.int(count)
        out.doubles(totals)
        out.bool(ordinals != nil)
        if let ordinals { out.ints(ordinals) }
        out.raw(status)
        out.raw(due)
        out.doubles(progress)
        out.bool(carry != nil)
        if let carry { out.int(carry.current); out.int(carry.longest) }
        out.int(keep)
        out.bool(trace)
        return out
    }

    init(reading bytes: [UInt8]) throws {
        var reader = RunnerFrameReader(bytes)
        guard let operation = Operation(rawValue: try reader.byte()) else { throw RunnerFrameError() }
        self.operation = operation
        let instructions = try reader.int(), cpu = try reader.int()
        share = RequestShare(instructions: instructions, cpuNanoseconds: cpu,
                             budget: PolicyRequestBudget(instructions: try reader.int(), cpuMilliseconds: try reader.int()))
        continues = try reader.bool()
        owner = try reader.string()
        let scriptCount = try reader.int()
        guard (0...1024).contains(scriptCount) else { throw RunnerFrameError() }
        scripts = try (0..<scriptCount).map { _ in
            Script(name: try reader.string(), file: try reader.string(), sha256: try reader.string(), source: try reader.optionalString())
        }
        evaluation = try reader.bool() ? try RunnerEvaluation(reading: &reader) : nil
        parametersJSON = try reader.string()
        startedOn = try reader.int()
        goal = try reader.double()
        unit = try reader.string()
        first = try reader.int()
        count = try reader.int()
        totals = try reader.doubles()
        ordinals = try reader.bool() ? try reader.ints() : nil
        status = try reader.raw()
        due = try reader.raw()
        progress = try reader.doubles()
        carry = try reader.bool() ? HabitStreak(current: try reader.int(), longest: try reader.int()) : nil
        keep = try reader.int()
        trace = try reader.bool()
    }
}
