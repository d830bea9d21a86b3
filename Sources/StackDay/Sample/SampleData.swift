import Foundation

/// Seed 000's sample: three habits tracked from 2026-10-01 to 2026-10-11 in Seoul time (+09:00).
public enum SampleData {
    /// Seoul's fixed offset; Korea has no daylight saving time.
    public static let timeZone = TimeZone(secondsFromGMT: 9 * 3600) ?? .gmt
    /// The sample's "now": the evening of 2026-10-11 in Seoul.
    public static let now = Date(timeIntervalSince1970: 1_791_723_600) // 2026-10-11T22:00:00+09:00
    public static let firstDay = LocalDay(uncheckedOrdinal: CivilDate.ordinal(year: 2026, month: 10, day: 1))

    struct SampleHabit {
        let name: String
        let goal: Double
        let unit: String
        let daily: [Double]
    }

    static let habits = [
        SampleHabit(name: "물 마시기", goal: 8, unit: "잔", daily: [8, 8, 6, 8, 8, 8, 9, 8, 8, 8, 3]),
        SampleHabit(name: "운동", goal: 30, unit: "분", daily: [30, 0, 45, 30, 0, 25, 30, 0, 35, 30, 30]),
        SampleHabit(name: "독서", goal: 20, unit: "쪽", daily: [10, 25, 30, 20, 0, 15, 20, 22, 0, 20, 20]),
    ]

    /// Creates the sample's habits and completions through the use cases; `context` should use
    /// `timeZone` and a clock at or after `now`.
    public static func load(into context: HabitContext) throws {
        let create = CreateHabit(context: context)
        let record = RecordCompletion(context: context)
        for habit in habits {
            try create(name: habit.name, startedOn: firstDay, goal: habit.goal, unit: habit.unit)
            for (offset, amount) in habit.daily.enumerated() where amount > 0 {
                try record(habitName: habit.name, amount: amount, on: firstDay.adding(days: offset))
            }
        }
        // Extra records later on the same day: they add to that day's total.
        try record(habitName: "물 마시기", amount: 2, at: instant(day: 11, hour: 21, minute: 40))
        // 07:30 in Seoul is 22:30 the day before in UTC; the fixed zone keeps it on the 6th.
        try record(habitName: "운동", amount: 15, at: instant(day: 6, hour: 7, minute: 30))
    }

    private static func instant(day: Int, hour: Int, minute: Int) -> Date {
        let midnight = firstDay.adding(days: day - 1).firstInstant(in: timeZone)
        return midnight.addingTimeInterval(TimeInterval((hour * 60 + minute) * 60))
    }
}
