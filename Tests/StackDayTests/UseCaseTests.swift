import Foundation
import Testing
import StackDay

@Suite("Use cases")
struct UseCaseTests {
    /// A context at 2026-10-11 20:00 Seoul with a plain habit "read" and a quantity habit "water", both from 10-01.
    func seeded() throws -> HabitContext {
        let context = makeContext()
        try CreateHabit(context: context)(name: "read", startedOn: day("2026-10-01"))
        try CreateHabit(context: context)(name: "water", startedOn: day("2026-10-01"), goal: 8, unit: "cups")
        return context
    }

    enum Rejection: String, CaseIterable, CustomStringConvertible {
        case futureDay, beforeStart, afterArchive, zeroAmount, negativeAmount, nanAmount, infiniteAmount, tooFineAmount
        case duplicatePlain, unknownHabit, duplicateName, blankName, longName, zeroGoal, unknownPolicy, futureInstant
        var description: String { rawValue }
    }

    /// What each rejection's message says: the reason it is refused, so that a case refused for
    /// another reason (a habit archived, a day in the future) fails.
    static let reasons: [Rejection: String] = [
        .futureDay: "future", .beforeStart: "before 'read' started", .afterArchive: "after 'water' was archived",
        .zeroAmount: "amount must be", .negativeAmount: "amount must be", .nanAmount: "amount must be", .infiniteAmount: "amount must be",
        .tooFineAmount: "amount must be", .duplicatePlain: "already recorded", .unknownHabit: "'run'", .duplicateName: "already",
        .blankName: "cannot be empty", .longName: "at most", .zeroGoal: "goal must be", .unknownPolicy: "fortnightly",
        .futureInstant: "future",
    ]

    @Test("rejections leave the store as it was, each for its own reason", arguments: Rejection.allCases)
    func rejection(_ rejection: Rejection) throws {
        let context = try seeded()
        try RecordCompletion(context: context)(habitName: "read", on: day("2026-10-05"))
        try ArchiveHabit(context: context)(habitName: "water", on: day("2026-10-09"))
        let record = RecordCompletion(context: context)
        let before = try snapshot(context)
        let live = day("2026-10-08")
        let error = #expect(throws: (any Error).self) {
            switch rejection {
            case .futureDay: try record(habitName: "read", on: day("2026-10-12"))
            case .beforeStart: try record(habitName: "read", on: day("2026-09-30"))
            case .afterArchive: try record(habitName: "water", amount: 3, on: day("2026-10-10"))
            case .zeroAmount: try record(habitName: "water", amount: 0, on: live)
            case .negativeAmount: try record(habitName: "water", amount: -2, on: live)
            case .nanAmount: try record(habitName: "water", amount: .nan, on: live)
            case .infiniteAmount: try record(habitName: "water", amount: .infinity, on: live)
            case .tooFineAmount: try record(habitName: "water", amount: 0.0001, on: live)
            case .duplicatePlain: try record(habitName: "read", on: day("2026-10-05"))
            case .unknownHabit: try record(habitName: "run")
            case .duplicateName: try CreateHabit(context: context)(name: "  READ ")
            case .blankName: try CreateHabit(context: context)(name: "   ")
            case .longName: try CreateHabit(context: context)(name: String(repeating: "x", count: Habit.nameLimit + 1))
            case .zeroGoal: try CreateHabit(context: context)(name: "run", goal: 0)
            case .unknownPolicy: try CreateHabit(context: context)(name: "run", schedule: PolicyChoice(name: "fortnightly"))
            case .futureInstant: try record(habitName: "read", at: instant("2026-10-11T20:00:01+09:00"))
            }
        }
        let said = error.map { "\($0)" } ?? ""
        #expect(said.contains(Self.reasons[rejection] ?? "?"), "\(rejection) was refused for another reason: \(said)")
        #expect(try snapshot(context) == before)
    }

    func snapshot(_ context: HabitContext) throws -> [String] {
        try context.store.read { tx in
            try tx.habits.all().flatMap { habit in
                ["\(habit.name) \(habit.archivedOn?.iso ?? "-")"] + (try tx.completions.completions(habitID: habit.id).map { "\($0.completedOn) \($0.amount)" })
            }
        }
    }

    @Test("a policy script over 256 KiB is refused before anything compiles it, and nothing is stored")
    func scriptTooLarge() throws {
        let context = makeContext()
        let exact = "return {}" + String(repeating: " ", count: PolicyScript.maximumInstalledBytes - 9)
        let over = exact + " "
        #expect(throws: UseCaseError.scriptTooLarge(name: "big", bytes: over.utf8.count, limit: 262_144)) {
            try InstallPolicy(context: context)(name: "big", source: over)
        }
        #expect(ErrorCode.of(UseCaseError.scriptTooLarge(name: "big", bytes: 1, limit: 1)) == .policyTooLarge)
        #expect(try context.store.read { try $0.scripts.all() }.isEmpty)
        // At the limit the size check passes (this context's engine runs no scripts, so vetting refuses it).
        #expect(throws: PolicyRefusal.self) { try InstallPolicy(context: context)(name: "big", source: exact) }
    }

    @Test("error messages say what to change")
    func messages() throws {
        let context = try seeded()
        #expect(throws: UseCaseError.futureDay(day: day("2026-10-12"), today: day("2026-10-11"))) {
            try RecordCompletion(context: context)(habitName: "read", on: day("2026-10-12"))
        }
        #expect(UseCaseError.beforeStart(day: day("2026-09-30"), habit: "read", startedOn: day("2026-10-01")).description
                == "2026-09-30 is before 'read' started (2026-10-01)")
        #expect(HabitValidationError.nameTooLong(length: 101, limit: 100).description.contains("at most 100"))
    }

    @Test("a quantity habit accepts many completions a day; an instant becomes a day through the boundary")
    func quantityAndInstant() throws {
        let context = makeContext(dayStart: try DayStart(hour: 3))
        try CreateHabit(context: context)(name: "water", startedOn: day("2026-10-01"), goal: 8, unit: "cups")
        let record = RecordCompletion(context: context)
        try record(habitName: "water", amount: 3, on: day("2026-10-05"))
        try record(habitName: "water", amount: 5, on: day("2026-10-05"))
        let late = try record(habitName: "water", amount: 1, at: instant("2026-10-07T01:30:00+09:00"))
        #expect(late.completedOn == day("2026-10-06"))
        let timeline = try LoadTimeline(context: context)(habitName: "WATER")
        #expect(timeline.entry(on: day("2026-10-05"))?.state == .completed)
        #expect(timeline.entry(on: day("2026-10-05"))?.total == 8)
    }

    @Test("undo removes the latest completion of the day, then reports nothing to undo")
    func undo() throws {
        let context = try seeded()
        let record = RecordCompletion(context: context)
        try record(habitName: "water", amount: 3, at: instant("2026-10-11T08:00:00+09:00"))
        try record(habitName: "water", amount: 5, at: instant("2026-10-11T09:00:00+09:00"))
        let cancel = CancelCompletion(context: context)
        #expect(try cancel(habitName: "water").amount == 5)
        #expect(try cancel(habitName: "water").amount == 3)
        #expect(throws: UseCaseError.nothingToUndo(habit: "water", day: day("2026-10-11"))) { try cancel(habitName: "water") }
    }

    @Test("skipping a range creates one skip per day and skips nothing twice")
    func skipRange() throws {
        let context = try seeded()
        let skip = SkipDays(context: context)
        #expect(try skip(habitName: "read", days: LocalDayRange(day("2026-10-03"), day("2026-10-06"))).count == 4)
        #expect(try skip(habitName: "read", days: LocalDayRange(day("2026-10-05"), day("2026-10-07"))).count == 1)
        #expect(throws: UseCaseError.self) { try skip(habitName: "read", days: LocalDayRange(day("2026-10-10"), day("2026-10-12"))) }
        let timeline = try LoadTimeline(context: context)(habitName: "read")
        #expect(timeline.entries.filter { $0.state == .skipped }.count == 5)
    }

    @Test("archive, unarchive, rename, edit and delete")
    func lifecycle() throws {
        let context = try seeded()
        #expect(throws: HabitValidationError.self) { try ArchiveHabit(context: context)(habitName: "read", on: day("2026-09-01")) }
        let archived = try ArchiveHabit(context: context)(habitName: "read", on: day("2026-10-08"))
        #expect(archived.archivedOn == day("2026-10-08"))
        #expect(throws: UseCaseError.alreadyArchived(habit: "read", archivedOn: day("2026-10-08"))) { try ArchiveHabit(context: context)(habitName: "read") }
        #expect(try UnarchiveHabit(context: context)(habitName: "read").archivedOn == nil)
        #expect(throws: UseCaseError.notArchived(habit: "read")) { try UnarchiveHabit(context: context)(habitName: "read") }

        #expect(throws: UseCaseError.duplicateName(name: "water")) { try RenameHabit(context: context)(habitName: "read", to: "Water") }
        #expect(try RenameHabit(context: context)(habitName: "read", to: "Read").name == "Read")

        let edited = try EditHabit(context: context)(habitName: "water", changes: HabitChanges(goal: 2.5, unit: "l"))
        #expect(edited.goal == 2.5 && edited.unit == "l")
        #expect(throws: PolicyResolutionError.self) {
            try EditHabit(context: context)(habitName: "water", changes: HabitChanges(streak: PolicyChoice(name: "lenient")))
        }

        try RecordCompletion(context: context)(habitName: "water", amount: 1, on: day("2026-10-02"))
        try SkipDays(context: context)(habitName: "water", days: LocalDayRange(day("2026-10-03"), day("2026-10-03")))
        let water = try FindHabit(context: context)(named: "WATER")
        #expect(try FindHabit(context: context)(.id(water.id)) == water)
        try DeleteHabit(context: context)(habitName: "water")
        #expect(throws: UseCaseError.habitIDNotFound(id: water.id)) { try FindHabit(context: context)(.id(water.id)) }
        let left = try context.store.read { tx in
            try tx.completions.completions(habitID: water.id).count + tx.skips.skips(habitID: water.id).count
        }
        #expect(left == 0)
    }

    @Test("every use case that names a habit takes its id too")
    func byID() throws {
        let context = try seeded()
        let water = try FindHabit(context: context)(named: "WATER")
        let byID = HabitReference.id(water.id)
        let recorded = try RecordCompletion(context: context)(byID, amount: 2, on: day("2026-10-11"))
        #expect(recorded.habitID == water.id)
        #expect(try CancelCompletion(context: context)(byID, on: day("2026-10-11")).id == recorded.id)
        #expect(try SkipDays(context: context)(byID, days: LocalDayRange(day("2026-10-11"), day("2026-10-11"))).count == 1)
        #expect(try LoadTimeline(context: context)(byID).entry(on: day("2026-10-11"))?.state == .skipped)
        let summary = try #require(try SummarizeHabits(context: context)(byID).first?.get())
        #expect(summary.habit.id == water.id)
        #expect(try RenameHabit(context: context)(byID, to: "물").name == "물")
        #expect(try EditHabit(context: context)(byID, changes: HabitChanges(goal: 6)).goal == 6)
        #expect(try ArchiveHabit(context: context)(byID, on: day("2026-10-10")).archivedOn == day("2026-10-10"))
        #expect(try UnarchiveHabit(context: context)(byID).archivedOn == nil)
        #expect(try DeleteHabit(context: context)(byID).id == water.id)
        let missing = UUID()
        #expect(throws: UseCaseError.habitIDNotFound(id: missing)) { try RecordCompletion(context: context)(.id(missing)) }
        #expect(UseCaseError.habitIDNotFound(id: missing).description == "no habit with id \(missing.uuidString)")
    }

    @Test("summaries give statistics in creation order")
    func summaries() throws {
        let context = try seeded()
        try RecordCompletion(context: context)(habitName: "read", on: day("2026-10-10"))
        let summaries = try SummarizeHabits(context: context)().map { try $0.get() }
        #expect(summaries.map(\.habit.name) == ["read", "water"])
        #expect(summaries[0].statistics.streak == HabitStreak(current: 1, longest: 1))
        #expect(summaries[0].statistics.eligibleDays == 10)
        #expect(summaries[0].today?.state == .pending)
    }
}

@Suite("did you mean: how close is close")
struct DidYouMeanRuleTests {
    @Test("within one edit for short names, two for longer ones, or a prefix of two letters or more", arguments: [
        ("wter", ["water", "gym"], "water"), ("gm", ["water", "gym"], "gym"), ("g", ["water", "gym"], nil),
        ("medtiate", ["meditate", "read"], "meditate"), ("xyz", ["water", "gym"], nil), ("readign", ["reading"], "reading"),
        ("wa", ["water"], "water"), ("w", ["water"], nil), ("water", ["water"], nil), ("", ["water"], nil),
    ] as [(String, [String], String?)])
    func rule(name: String, names: [String], expected: String?) {
        #expect(DidYouMean.suggestion(for: name, among: names) == expected)
    }
}
