import Foundation
import StackDay
import StackDayLua

/// P1 and P1b: the `weekly` and `monthly-last-day` schedules over 10 years for 1000 habits.
struct ScheduleBenchmark {
    let context: BenchContext

    static let daySets = [["mon", "wed", "fri"], ["tue", "thu"], ["sat", "sun"], ["mon"], ["mon", "tue", "wed", "thu", "fri"]]

    var habits: Int { context.quick ? 20 : 1000 }
    var range: LocalDayRange {
        let first = (try? LocalDay(year: 2016, month: 1, day: 1)) ?? .earliest
        return LocalDayRange(first, first.adding(days: context.quick ? 99 : 3652))
    }

    func run() throws -> [Figure] {
        let library = try PolicyLibrary(searchPath: [context.policies])
        let weekly = try library.policy(named: "weekly")
        let monthEnd = try library.policy(named: "monthly-last-day")
        let range = self.range
        var engineDue = 0
        let engine = try Measure.best(3) {
            engineDue = 0
            for habit in 0..<habits {
                let binding = habit % 2 == 0
                    ? try weekly.bind(parameters: ["days": .array(Self.daySets[habit / 2 % 5].map(JSONValue.string))], startedOn: range.first, goal: 1, unit: "")
                    : try monthEnd.bind(parameters: [:], startedOn: range.first, goal: 1, unit: "")
                engineDue += try binding.dueDays(range).reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }

        // The same schedules written in Swift.
        var swiftDue = 0
        let swift = Measure.best(3) {
            swiftDue = 0
            for habit in 0..<habits {
                if habit % 2 == 0 {
                    let names = ["mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7]
                    let set = Set(Self.daySets[habit / 2 % 5].compactMap { names[$0] })
                    for day in range where set.contains(day.weekday) { swiftDue += 1 }
                } else {
                    for day in range where day.day == day.daysInMonth { swiftDue += 1 }
                }
            }
        }
        guard swiftDue == engineDue else { throw BenchError("P1: Swift schedules found \(swiftDue) due days, the engine \(engineDue)") }

        var figures: [Figure] = []
        if BenchContext.has("lua5.4") {
            let script = context.repository.appendingPathComponent("Benchmarks/p1-baseline.lua").path
            let run = try Measure.bestRun(3, "lua5.4", [script] + luaBaselineArguments(range: range))
            let parts = run.stdout.split(separator: " ")
            guard parts.count == 2, let seconds = Double(parts[0]), let due = Int(parts[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchError("P1: unexpected output from lua5.4: \(run.stdout)")
            }
            guard due == engineDue else { throw BenchError("P1: lua5.4 found \(due) due days, the engine \(engineDue)") }
            figures.append(Figure(id: "P1", compared: "weekly + monthly-last-day, \(habits) habits × \(range.count) days ÷ the same functions in lua5.4",
                                  engine: Table.seconds(engine), baseline: Table.seconds(seconds), ratio: engine / seconds, target: "≤ 1.1×", met: engine / seconds <= 1.1))
        }
        figures.append(Figure(id: "P1b", compared: "the same schedules written in Swift ÷ the engine",
                              engine: Table.seconds(engine), baseline: Table.seconds(swift), ratio: swift / engine, target: "reported", met: nil))
        return figures
    }

    /// The baseline's arguments: the policies folder, the range, the habit count and the weekday sets.
    func luaBaselineArguments(range: LocalDayRange) -> [String] {
        [context.policies.path, String(range.first.ordinal), String(range.last.ordinal), String(habits),
         Self.daySets.map { $0.joined(separator: ",") }.joined(separator: ";")]
    }
}
