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
            let script = try context.write("p1.lua", luaBaseline(range: range))
            let run = try Measure.bestRun(3, "lua5.4", [script, context.policies.path])
            let parts = run.stdout.split(separator: " ")
            guard parts.count == 2, let seconds = Double(parts[0]), let due = Int(parts[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchError("P1: unexpected output from lua5.4: \(run.stdout)")
            }
            guard due == engineDue else { throw BenchError("P1: lua5.4 found \(due) due days, the engine \(engineDue)") }
            figures.append(Figure(id: "P1", compared: "weekly + monthly-last-day, \(habits) habits × \(range.count) days ÷ the same functions in lua5.4",
                                  engine: Table.seconds(engine), baseline: Table.seconds(seconds), ratio: engine / seconds, target: "≤ 1.5×", met: engine / seconds <= 1.5))
        }
        figures.append(Figure(id: "P1b", compared: "the same schedules written in Swift ÷ the engine",
                              engine: Table.seconds(engine), baseline: Table.seconds(swift), ratio: swift / engine, target: "reported", met: nil))
        return figures
    }

    /// The baseline: the policy files' own functions called in a plain loop, with day views built in Lua.
    func luaBaseline(range: LocalDayRange) -> String {
        let sets = Self.daySets.map { "{" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "}" }.joined(separator: ",")
        return """
        local folder = arg[1]
        local weekly = dofile(folder .. "/weekly.lua")
        local month_end = dofile(folder .. "/monthly-last-day.lua")
        local sets = {\(sets)}
        local first, last, habits = \(range.first.ordinal), \(range.last.ordinal), \(habits)
        local function civil(z)
          z = z + 719468
          local era = (z >= 0 and z or z - 146096) // 146097
          local doe = z - era * 146097
          local yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
          local doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
          local mp = (5 * doy + 2) // 153
          local d = doy - (153 * mp + 2) // 5 + 1
          local m = mp < 10 and mp + 3 or mp - 9
          return yoe + era * 400 + (m <= 2 and 1 or 0), m, d
        end
        local function leap(y) return y % 4 == 0 and (y % 100 ~= 0 or y % 400 == 0) end
        local lengths = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
        local before = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}
        local start = os.clock()
        local due = 0
        for h = 0, habits - 1 do
          local policy = h % 2 == 0 and weekly or month_end
          local params = { days = sets[(h // 2) % 5 + 1] }
          local y, m, d = civil(first)
          local habit = { startedOn = { year = y, month = m, day = d, ordinal = first }, goal = 1, unit = "" }
          local day = {}
          -- Day views built incrementally, the cheapest way plain Lua can.
          local weekday = (first + 3) % 7 + 1
          local length = (m == 2 and leap(y)) and 29 or lengths[m]
          for z = first, last do
            day.year, day.month, day.day, day.weekday, day.ordinal = y, m, d, weekday, z
            day.daysInMonth = length
            day.yearDay = before[m] + d + ((m > 2 and leap(y)) and 1 or 0)
            if policy.isDue(day, params, habit) then due = due + 1 end
            d = d + 1
            weekday = weekday % 7 + 1
            if d > length then
              d, m = 1, m + 1
              if m > 12 then m, y = 1, y + 1 end
              length = (m == 2 and leap(y)) and 29 or lengths[m]
            end
          end
        end
        io.write(string.format("%.6f %d\\n", os.clock() - start, due))
        """
    }
}
