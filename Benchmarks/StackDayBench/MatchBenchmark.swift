import CLua
import Foundation
import StackDay
import StackDayLua

/// MATCH: the policies' pattern functions, as a policy calls them in the sandbox, against Lua's
/// own in a plain state of the same process, on the patterns policies write (dates, numbers,
/// words, captures, bracket classes); and the pathological patterns, each of which must end in
/// its budget error within the call's budget.
struct MatchBenchmark {
    let context: BenchContext

    /// The typical work: `F` is the library (Lua's `string`, or the sandbox's), `rounds` the repeats.
    static let typical = #"""
    local F = string
    local lines = {}
    local words = {"water", "gym", "read", "Mon", "Wed", "Fri", "cups", "pages", "note", "streak"}
    for i = 1, 200 do
      local w1, w2 = words[i % 10 + 1], words[(i * 7) % 10 + 1]
      lines[i] = string.format("2026-%02d-%02d %s %d %s; %s=%d tags: [%s,%s] (ok)", i % 12 + 1, i % 28 + 1, w1, i * 3, w2, w1, i, w2, w1)
    end
    local function work(rounds)
      local count = 0
      for _ = 1, rounds do
        for i = 1, #lines do
          local line = lines[i]
          local y, m, d = F.match(line, "^(%d+)-(%d+)-(%d+)")
          count = count + (y and 1 or 0)
          for word in F.gmatch(line, "%a+") do count = count + 1 end
          local swapped = F.gsub(line, "(%w+)=(%w+)", "%2=%1")
          count = count + #swapped
          if F.find(line, "[MmWwFf][oer][ndi]") then count = count + 1 end
          if F.find(line, "cups", 1, true) then count = count + 1 end
          count = count + #(F.match(line, "%d+") or "")
          local squeezed = F.gsub(line, "%s+", " ")
          count = count + #squeezed
          if F.find(line, "[%a_][%w_]*%s*=") then count = count + 1 end
          local tags = F.match(line, "%[([^%]]*)%]")
          count = count + #(tags or "")
          if F.find(line, "%((%a+)%)$") then count = count + 1 end
        end
      end
      return count
    end
    """#

    /// Patterns that backtrack without end in a plain matcher: each must end in its budget error.
    static let pathological: [(name: String, body: String)] = [
        ("a? × 40 then a × 40", #"return ("a"):rep(40):match(("a?"):rep(40) .. ("a"):rep(40)) ~= nil"#),
        ("a back-reference to a position capture", #"return ("a"):rep(200000):find("().-%1") ~= nil"#),
        ("nested .- through gsub", #"return select(2, ("a"):rep(3000):gsub(".-.-.-.-b", "")) >= 0"#),
        ("a* × 30 then b", #"return ("a"):rep(100000):find(("a*"):rep(30) .. "b") ~= nil"#),
        ("classes with lazy repeats", #"return ("x1 "):rep(30000):find(("[%w%p]-%s*"):rep(12) .. "$y") ~= nil"#),
    ]

    static let rounds = 60
    /// The day the benchmark's policy does its work on (a due day is evaluated with its block of
    /// days): 2026-10-05.
    static let workDayOrdinal = 20_731

    func run() throws -> [Figure] {
        let workDay = try LocalDay(ordinal: Self.workDayOrdinal)
        let rounds = context.quick ? 10 : Self.rounds
        let baselineCount = try stockCount(rounds: 1)
        // The same chunk as a policy: the sandbox's string library, charged as every policy is.
        let folder = context.work.appendingPathComponent("match-policies")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let policy = Self.typical + """

        return { isDue = function(day)
          if day.ordinal ~= \(Self.workDayOrdinal) then return false end
          return work(\(rounds)) == \(baselineCount * rounds)
        end }
        """
        try policy.write(to: folder.appendingPathComponent("match-typical.lua"), atomically: true, encoding: .utf8)
        let unbounded = PolicyBudget(instructions: Int(Int32.max) * 64, memoryBytes: 512 << 20, cpuMilliseconds: 0, stateBytes: 1 << 30)
        let library = try PolicyLibrary(searchPath: [folder], budget: unbounded)
        let typical = try library.policy(named: "match-typical")

        var engine = Double.infinity, baseline = Double.infinity
        for _ in 0..<5 { // side by side, alternating
            var agreed = false
            // A binding keeps its answers: a new one each time, bound outside the timing.
            let binding = try typical.bind(parameters: [:], startedOn: workDay, goal: 1, unit: "")
            engine = min(engine, try Measure.best(1) { agreed = try binding.dueDays(LocalDayRange(workDay, workDay))[0] })
            guard agreed else { throw BenchError("MATCH: the sandbox's results differ from Lua's") }
            baseline = min(baseline, try Measure.best(1) { _ = try stockCount(rounds: rounds) })
        }
        var figures = [Figure(id: "MATCH", compared: "typical policy patterns (dates, %d+, words, captures, classes) in the sandbox ÷ Lua's own",
                              engine: Table.seconds(engine), baseline: Table.seconds(baseline), ratio: engine / baseline, target: "≤ 1.0×",
                              met: engine / baseline <= 1.0)]
        figures += try pathologicalFigures(on: workDay)
        return figures
    }

    /// Runs the typical work in a plain Lua state with Lua's own string library; returns its count.
    private func stockCount(rounds: Int) throws -> Int {
        guard let state = luaL_newstate() else { throw BenchError("MATCH: no Lua state") }
        defer { lua_close(state) }
        luaL_openlibs(state)
        let source = Self.typical + "\nreturn work(\(rounds))"
        guard stackday_luaL_loadbufferx(state, source, source.utf8.count, "=match", "t") == LUA_OK,
              stackday_lua_pcall(state, 0, 1, 0) == LUA_OK else {
            throw BenchError("MATCH: the baseline failed: \(stackday_lua_tostring(state, -1).map { String(cString: $0) } ?? "?")")
        }
        return Int(stackday_lua_tointeger(state, -1))
    }

    /// Each pathological pattern under the standard budget: its CPU time against the call's.
    private func pathologicalFigures(on workDay: LocalDay) throws -> [Figure] {
        let folder = context.work.appendingPathComponent("match-hostile")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var figures: [Figure] = []
        let budget = PolicyBudget.standard
        for (index, item) in Self.pathological.enumerated() {
            let name = "hostile\(index)"
            try "return { isDue = function(day)\n\(item.body)\nend }\n".write(to: folder.appendingPathComponent("\(name).lua"), atomically: true, encoding: .utf8)
            let library = try PolicyLibrary(searchPath: [folder], budget: budget)
            let binding = try library.policy(named: name).bind(parameters: [:], startedOn: workDay, goal: 1, unit: "")
            let started = threadCPUSeconds()
            var ended = false
            do {
                _ = try binding.dueDays(LocalDayRange(workDay, workDay))
            } catch let error as PolicyError {
                ended = [.instructionBudget, .timeBudget, .memoryBudget].contains(error.kind)
            }
            let spent = threadCPUSeconds() - started
            let allowed = Double(budget.cpuMilliseconds) / 1000
            figures.append(Figure(id: "MATCHp\(index + 1)", compared: "\(item.name): CPU until its budget error ÷ the call's CPU budget",
                                  engine: Table.seconds(spent), baseline: Table.seconds(allowed), ratio: spent / allowed,
                                  target: "ends in budget, ≤ 1.2×", met: ended && spent / allowed <= 1.2))
        }
        return figures
    }

    private func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
