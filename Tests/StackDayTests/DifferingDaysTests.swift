import Foundation
import Testing
import StackDay

/// The lab's list of differing days: outcomes and streaks that change, never a day not due whose
/// streak is only carried over.
@Suite("lab differing days")
struct DifferingDaysTests {
    static func day(_ iso: String, _ state: EntryState, _ current: Int) throws -> SimulatedDay {
        SimulatedDay(day: try LocalDay(iso: iso), state: state, streak: HabitStreak(current: current, longest: current), score: 0)
    }

    @Test("a missed day kept by grace differs, and so do the due days after it; the days not due between them do not")
    func quiet() throws {
        let habit = try Habit(name: "walk", startedOn: try LocalDay(iso: "2026-10-01"), createdAt: .init(timeIntervalSince1970: 0))
        let revision = habit.latest
        let summary = HabitSummary(habit: habit, statistics: HabitStatistics(completedDays: 0, eligibleDays: 0, completionRate: 0,
                                                                           streak: HabitStreak(current: 0, longest: 0), score: 0), today: nil)
        let current = [try Self.day("2026-10-05", .missed, 0), try Self.day("2026-10-06", .notDue, 0), try Self.day("2026-10-07", .completed, 1),
                       try Self.day("2026-10-08", .notDue, 1), try Self.day("2026-10-09", .completed, 2)]
        let proposed = [try Self.day("2026-10-05", .missed, 4), try Self.day("2026-10-06", .notDue, 4), try Self.day("2026-10-07", .completed, 5),
                        try Self.day("2026-10-08", .notDue, 5), try Self.day("2026-10-09", .completed, 6)]
        let simulation = PolicySimulation(current: summary, proposed: summary, revision: revision, currentDays: current, proposedDays: proposed)
        #expect(simulation.differingDays.map(\.iso) == ["2026-10-05", "2026-10-07", "2026-10-09"])
    }
}
