/// The default schedule: every day is due.
public struct EveryDaySchedule: SchedulePolicy {
    public init() {}

    public func dueDays(_ days: LocalDayRange, habit: Habit) throws -> [Bool] {
        Array(repeating: true, count: days.count)
    }
}
