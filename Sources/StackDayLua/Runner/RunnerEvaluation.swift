import Foundation
import StackDay

/// What an evaluation call carries besides its scripts: the habit with its whole rule history,
/// the days' totals and skips after what is known, and the answers already known.
struct RunnerEvaluation {
    var habit: Habit
    var dailyTotals: [(day: LocalDay, thousandths: Int64)]
    var skipDays: [LocalDay]
    var today: LocalDay
    var period: LocalDayRange
    var known: TimelineAnswers?
    var needsStreak: Bool
    /// For each revision in order, for each role in `PolicyRole.habitRoles` order: the index of
    /// its script among the call's scripts.
    var scriptIndexes: [Int]

    func write(to out: inout RunnerFrame) {
        out.string(habit.id.uuidString)
        out.string(habit.name)
        out.int(habit.startedOn.ordinal)
        out.int(habit.archivedOn?.ordinal ?? Int.min)
        out.double(habit.createdAt.timeIntervalSince1970)
        out.double(habit.updatedAt.timeIntervalSince1970)
        out.string(habit.unit)
        out.int(habit.revisions.count)
        for revision in habit.revisions {
            out.int(revision.number)
            out.int(revision.effectiveFrom.ordinal)
            out.double(revision.goal)
            out.double(revision.createdAt.timeIntervalSince1970)
            for role in PolicyRole.habitRoles {
                let choice = revision.choice(for: role)
                out.string(choice.name)
                out.string(choice.parametersJSON)
                out.optionalString(choice.sha256)
            }
        }
        out.ints(dailyTotals.map(\.day.ordinal))
        out.numbers(dailyTotals.map(\.thousandths))
        out.ints(skipDays.map(\.ordinal))
        out.int(today.ordinal)
        out.int(period.first.ordinal)
        out.int(period.last.ordinal)
        out.bool(known != nil)
        if let known { Self.write(known, to: &out) }
        out.bool(needsStreak)
        out.ints(scriptIndexes)
    }

    init(_ request: EvaluationRequest, scriptIndexes: [Int]) {
        habit = request.habit
        dailyTotals = request.dailyTotals
        skipDays = request.skips.map(\.day)
        today = request.today
        period = request.period
        known = request.known
        needsStreak = request.needsStreak
        self.scriptIndexes = scriptIndexes
    }

    init(reading reader: inout RunnerFrameReader) throws {
        guard let id = UUID(uuidString: try reader.string()) else { throw RunnerFrameError() }
        let name = try reader.string()
        let startedOn = try LocalDay(ordinal: try reader.int())
        let archived = try reader.int()
        let createdAt = Date(timeIntervalSince1970: try reader.double())
        let updatedAt = Date(timeIntervalSince1970: try reader.double())
        let unit = try reader.string()
        let count = try reader.int()
        guard (1...100_000).contains(count) else { throw RunnerFrameError() }
        var revisions: [HabitRevision] = []
        for _ in 0..<count {
            let number = try reader.int(), effectiveFrom = try LocalDay(ordinal: try reader.int())
            let goal = try reader.double(), created = Date(timeIntervalSince1970: try reader.double())
            var choices: [PolicyChoice] = []
            for _ in PolicyRole.habitRoles {
                let name = try reader.string(), parameters = try reader.string()
                choices.append(try PolicyChoice(name: name, parametersJSON: parameters).pinned(to: try reader.optionalString()))
            }
            revisions.append(try HabitRevision(number: number, effectiveFrom: effectiveFrom, goal: goal, schedule: choices[0],
                                               progress: choices[1], streak: choices[2], createdAt: created))
        }
        habit = try Habit(id: id, name: name, startedOn: startedOn, archivedOn: archived == Int.min ? nil : try LocalDay(ordinal: archived),
                          createdAt: createdAt, updatedAt: updatedAt, unit: unit, revisions: revisions)
        let days = try reader.ints(), amounts: [Int64] = try reader.numbers()
        guard days.count == amounts.count else { throw RunnerFrameError() }
        dailyTotals = try zip(days, amounts).map { (try LocalDay(ordinal: $0), $1) }
        skipDays = try reader.ints().map { try LocalDay(ordinal: $0) }
        today = try LocalDay(ordinal: try reader.int())
        period = LocalDayRange(try LocalDay(ordinal: try reader.int()), try LocalDay(ordinal: try reader.int()))
        known = try reader.bool() ? try Self.readAnswers(&reader) : nil
        needsStreak = try reader.bool()
        scriptIndexes = try reader.ints()
        guard scriptIndexes.count == habit.revisions.count * PolicyRole.habitRoles.count else { throw RunnerFrameError() }
    }

    static func write(_ answers: TimelineAnswers, to out: inout RunnerFrame) {
        out.numbers(answers.due)
        out.doubles(answers.progress)
        out.numbers(answers.thousandths)
        out.numbers(answers.skipped)
        out.int(answers.spans.count)
        for span in answers.spans {
            out.bool(span != nil)
            guard let span else { continue }
            out.int(span.days.first.ordinal)
            out.int(span.days.last.ordinal)
            out.string(span.rulesKey)
            out.ints(numbers(of: span.quota))
        }
    }

    static func readAnswers(_ reader: inout RunnerFrameReader) throws -> TimelineAnswers {
        // Flags are read as bytes and compared, never taken as `Bool` memory from the other side.
        var answers = TimelineAnswers(due: try reader.numbers(of: UInt8.self).map { $0 != 0 }, progress: try reader.doubles(),
                                      thousandths: try reader.numbers(), skipped: try reader.numbers(of: UInt8.self).map { $0 != 0 })
        guard answers.progress.count == answers.due.count, answers.thousandths.count == answers.due.count,
              answers.skipped.count == answers.due.count else { throw RunnerFrameError() }
        let count = try reader.int()
        guard (0...100_000).contains(count) else { throw RunnerFrameError() }
        for _ in 0..<count {
            guard try reader.bool() else {
                answers.spans.append(nil)
                continue
            }
            let days = LocalDayRange(try LocalDay(ordinal: try reader.int()), try LocalDay(ordinal: try reader.int()))
            let key = try reader.string()
            answers.spans.append(CachedSpan(days: days, rulesKey: key, quota: Self.quota(try reader.ints())))
        }
        return answers
    }

    /// `[times, kind, days]` for a quota (kind 0: none, 1 week, 2 month, 3 rolling); a week's
    /// `days` is 7 when it starts on Sunday, else 0.
    static func numbers(of quota: PeriodQuota?) -> [Int] {
        guard let quota else { return [0, 0, 0] }
        return switch quota.period {
        case .week: [quota.times, 1, quota.weekStart == .sunday ? 7 : 0]
        case .month: [quota.times, 2, 0]
        case .rolling(let days): [quota.times, 3, days]
        }
    }

    /// A quota from `[times, kind, days]` (kind 0: none, 1 week, 2 month, 3 rolling).
    static func quota(_ numbers: [Int]) -> PeriodQuota? {
        guard numbers.count == 3 else { return nil }
        return switch numbers[1] {
        case 1: PeriodQuota(times: numbers[0], period: .week, weekStart: numbers[2] == 7 ? .sunday : .monday)
        case 2: PeriodQuota(times: numbers[0], period: .month)
        case 3: PeriodQuota(times: numbers[0], period: .rolling(days: numbers[2]))
        default: nil
        }
    }
}
