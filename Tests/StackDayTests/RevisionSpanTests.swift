import Foundation
import Testing
import StackDay

/// Which revision judges which days.
@Suite("revision spans")
struct RevisionSpanTests {
    let epoch = Date(timeIntervalSince1970: 0)

    /// A habit from 2026-10-01 whose revisions 2, 3, … take effect on `froms` (offsets from the start), in order.
    func habit(_ froms: [Int]) throws -> Habit {
        var habit = try Habit(name: "read", startedOn: LocalDay(iso: "2026-10-01"), createdAt: epoch)
        for (index, offset) in froms.enumerated() {
            habit = try habit.appending(habit.latest.with(goal: Double(index + 2)), from: habit.startedOn.adding(days: offset), at: epoch)
        }
        return habit
    }

    @Test("the latest revision effective on or before a day judges it", arguments: [
        ([], [[1, 0, 30]]),
        ([10], [[1, 0, 9], [2, 10, 30]]),
        ([10, 20], [[1, 0, 9], [2, 10, 19], [3, 20, 30]]),
        // A later revision effective earlier takes over from its day: revision 2 judges nothing after it.
        ([10, 5], [[1, 0, 4], [3, 5, 30]]),
        ([10, 20, 15], [[1, 0, 9], [2, 10, 14], [4, 15, 30]]),
        // Retroactive: from the start day on.
        ([10, 0], [[3, 0, 30]]),
        ([40], [[1, 0, 30]]),
    ])
    func spans(froms: [Int], expected: [[Int]]) throws {
        let habit = try habit(froms)
        let start = habit.startedOn
        let spans = habit.revisionSpans(in: LocalDayRange(start, start.adding(days: 30)))
        #expect(spans.map { [$0.revision.number, start.days(to: $0.days.first), start.days(to: $0.days.last)] } == expected)
        for span in spans {
            for day in span.days { #expect(habit.revision(on: day).number == span.revision.number) }
        }
        #expect(habit.revision(on: start.adding(days: -3)).number == 1, "days before every revision: revision 1")
    }

    @Test("revisions must be numbered 1, 2, 3, …")
    func numbering() throws {
        let first = try HabitRevision(number: 1, effectiveFrom: LocalDay(iso: "2026-10-01"), goal: 1, schedule: .daily, progress: .goal, streak: .strict, createdAt: epoch)
        let third = try first.renumbered(3, effectiveFrom: first.effectiveFrom, createdAt: epoch)
        #expect(throws: HabitValidationError.revisionsOutOfOrder(expected: 2, found: 3)) {
            try Habit(name: "read", startedOn: first.effectiveFrom, createdAt: epoch, revisions: [first, third])
        }
        #expect(throws: HabitValidationError.revisionsOutOfOrder(expected: 1, found: 0)) {
            try Habit(name: "read", startedOn: first.effectiveFrom, createdAt: epoch, revisions: [])
        }
        #expect(throws: HabitValidationError.invalidRevisionNumber(0)) { try first.renumbered(0, effectiveFrom: first.effectiveFrom, createdAt: epoch) }
    }
}
