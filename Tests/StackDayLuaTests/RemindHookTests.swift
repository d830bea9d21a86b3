import Foundation
import Testing
import StackDay
import StackDayLua

/// `remind(day, progress, params)`: an optional function of a schedule or progress policy that
/// says whether a reminder goes out on a day still open.
@Suite("remind hook")
struct RemindHookTests {
    static let half = """
        return {
          progress = function(total, goal) return math.min(1, total / goal) end,
          remind = function(day, progress, params)
            if day.weekday == 7 then return false end
            return progress < (params.below or 0.5)
          end,
        }
        """

    @Test("a progress policy's remind answers from the day, the progress so far and the parameters; one without remind has no say")
    func answers() throws {
        let fixture = try PolicyFixture(["half": Self.half])
        let binding = try fixture.library.policy(named: "half").bind(parameters: [:], startedOn: day("2026-10-01"), goal: 20, unit: "pages")
        #expect(try binding.remind(day: day("2026-10-05"), progress: 0.25) == true)
        #expect(try binding.remind(day: day("2026-10-05"), progress: 0.75) == false)
        #expect(try binding.remind(day: day("2026-10-11"), progress: 0.25) == false, "a Sunday")
        let strict = try fixture.library.policy(named: "half").bind(parameters: ["below": .number(0.9)], startedOn: day("2026-10-01"), goal: 20, unit: "pages")
        #expect(try strict.remind(day: day("2026-10-05"), progress: 0.75) == true)
        let goal = try fixture.library.policy(named: "goal").bind(parameters: [:], startedOn: day("2026-10-01"), goal: 1, unit: "")
        #expect(try goal.remind(day: day("2026-10-05"), progress: 0) == nil)
        #expect(try LuaProgressPolicy(binding: binding).remind(day: day("2026-10-05"), progress: 0.1) == true)
    }

    @Test("a remind that answers other than true or false fails naming the day; one past its budget ends in its budget's error")
    func failures() throws {
        let fixture = try PolicyFixture([
            "wordy": "return { progress = function(total, goal) return 0 end, remind = function() return 'yes' end }\n",
            "endless": "return { progress = function(total, goal) return 0 end, remind = function() while true do end end }\n",
        ], budget: PolicyBudget(instructions: 200_000, memoryBytes: 8 << 20, cpuMilliseconds: 200))
        let wordy = try fixture.library.policy(named: "wordy").bind(parameters: [:], startedOn: day("2026-10-01"), goal: 1, unit: "")
        let error = policyError { _ = try wordy.remind(day: day("2026-10-05"), progress: 0) }
        #expect(error?.message.contains("remind returned string for 2026-10-05; expected true or false") == true, "\(String(describing: error))")
        let endless = try fixture.library.policy(named: "endless").bind(parameters: [:], startedOn: day("2026-10-01"), goal: 1, unit: "")
        #expect(policyError { _ = try endless.remind(day: day("2026-10-05"), progress: 0) }?.isBudget == true)
    }
}
