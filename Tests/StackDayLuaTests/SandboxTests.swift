import Foundation
import Testing
import StackDay
import StackDayLua

@Suite("Lua host: hostile policies end in clear errors and leave the host usable")
struct SandboxTests {
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let body: String
        let kind: PolicyError.Kind
        let message: String
    }

    static let cases: [Case] = [
        Case(description: "an endless loop", body: "while true do end", kind: .instructionBudget, message: "exceeded its"),
        Case(description: "an endless loop inside the policy's own pcall",
             body: "while true do pcall(function() while true do end end) end", kind: .instructionBudget, message: "exceeded its"),
        Case(description: "an endless loop inside xpcall with a handler that loops too",
             body: "while true do xpcall(function() while true do end end, function() while true do end end) end",
             kind: .instructionBudget, message: "exceeded its"),
        Case(description: "string.rep of 2^31 bytes", body: "return #string.rep('x', 2^31) > 0", kind: .memoryBudget, message: "exceeded its memory budget"),
        Case(description: "a table that grows without end", body: "local t = {} while true do t[#t + 1] = {} end", kind: .memoryBudget, message: "exceeded its memory budget"),
        Case(description: "repeated concatenation", body: "local s = 'x' while true do s = s .. s end", kind: .memoryBudget, message: "exceeded its memory budget"),
        Case(description: "a memory error caught by the policy's pcall",
             body: "local t = {} while true do pcall(function() t[#t + 1] = string.rep('y', 1 << 20) end) end", kind: .memoryBudget, message: "exceeded its memory budget"),
        // Growing the stack to Lua's limit takes about as long as the time budget: either ends it.
        Case(description: "deep recursion", body: "local function f(n) return 1 + f(n + 1) end return f(1) > 0", kind: .script, message: "stack overflow|exceeded its"),
        Case(description: "deep recursion through C calls", body: "local function f(s) return (s:gsub('.', f)) end return f('x') ~= nil", kind: .script, message: "stack overflow"),
        Case(description: "a metatable with __gc", body: "setmetatable({}, {__gc = function() while true do end end}) return true", kind: .script, message: "__gc are not allowed"),
        Case(description: "a pattern that backtracks for hours", body: "return ('a'):rep(3000):find('.-.-.-.-.-b') ~= nil", kind: .instructionBudget, message: "exceeded its"),
        Case(description: "error() with a table", body: "error({code = 1})", kind: .script, message: "error {code = 1}"),
        Case(description: "error() with a table carrying a message", body: "error({message = 'bad day', code = 7})", kind: .script, message: "error {message = \"bad day\", code = 7}"),
        Case(description: "error() with nil", body: "error()", kind: .script, message: "error object is a nil value"),
        Case(description: "loading bytecode", body: "local f, e = load('\\27LuaT\\0\\25\\147') if not f then error(e) end return true", kind: .script, message: "binary chunk"),
        Case(description: "string.dump through a string method", body: "return ('').dump(function() end) ~= nil", kind: .script, message: "dump"),
        Case(description: "coroutines are not available", body: "local co = coroutine.wrap(function() while true do end end) co() return true", kind: .script, message: "coroutine"),
        Case(description: "changing the string metatable", body: "getmetatable('').__index = {} return true", kind: .script, message: "index a boolean value"),
        Case(description: "setting a global while answering", body: "counter = (counter or 0) + 1 return true", kind: .script, message: "global variables cannot change after loading"),
        Case(description: "rawset on the frozen globals", body: "rawset(_G, 'counter', 1) return true", kind: .script, message: "read-only"),
        Case(description: "isDue returning a string", body: "return 'yes'", kind: .wrongAnswer, message: "isDue returned string for 2026-10-05"),
        Case(description: "isDue returning nothing", body: "return", kind: .wrongAnswer, message: "isDue returned nil"),
        Case(description: "string.format with %p", body: "return ('%p'):format({}) ~= ''", kind: .script, message: "%p is not available"),
        Case(description: "rawset on the day view", body: "rawset(day, 'year', 0) return true", kind: .script, message: "read-only"),
        Case(description: "writing to the day view", body: "day.weekday = 1 return true", kind: .script, message: "the day view is read-only"),
        Case(description: "string.rep of an empty string 1e15 times", body: "return #string.rep('', 1e15) == 0", kind: .instructionBudget, message: "exceeded its"),
        Case(description: "string.rep with an empty separator 1e15 times", body: "return #('').rep('', 1e15, '') == 0", kind: .instructionBudget, message: "exceeded its"),
        Case(description: "table.move over 1e15 slots", body: "table.move({}, 1, 1e15, 2) return true", kind: .instructionBudget, message: "exceeded its"),
        Case(description: "a costly pattern on a short subject",
             body: "return string.find(string.rep('a', 64), string.rep('a*', 30) .. 'b') ~= nil", kind: .instructionBudget, message: "exceeded its"),
        Case(description: "a costly pattern through gmatch on a short subject",
             body: "for _ in ('a'):rep(40):gmatch(('a-'):rep(20) .. 'b') do end return true", kind: .instructionBudget, message: "exceeded its"),
    ]

    @Test(arguments: cases)
    func hostile(_ hostile: Case) throws {
        // A case that ends on its memory budget touches up to 64 MiB of fresh memory: on a virtual
        // machine whose first touches are slow (0.5 s of CPU for 64 MiB, measured), the standard
        // 500 ms of CPU could run out first. Its time budget is ample, so memory is what it meets.
        let budget = hostile.kind == .memoryBudget ? PolicyBudget(cpuMilliseconds: 5_000) : .standard
        let fixture = try PolicyFixture(["hostile": schedule(hostile.body)], budget: budget)
        do {
            _ = try fixture.isDue("hostile")
            Issue.record("expected \(hostile.kind) error, got an answer")
        } catch let error as PolicyError {
            // A loop ends on whichever budget it reaches first: its instructions or its CPU time.
            let messages = hostile.message.split(separator: "|").map(String.init)
            if hostile.kind == .instructionBudget || (messages.count > 1 && error.kind.isBudget) {
                #expect([.instructionBudget, .timeBudget].contains(error.kind), "\(error)")
            } else {
                #expect(error.kind == hostile.kind)
            }
            #expect(messages.contains { error.description.contains($0) }, "\(error)")
            #expect(error.description.contains("policy hostile"))
        }
        // The host answers the next call, for this and another policy.
        #expect(try fixture.isDue("daily"))
        #expect(try fixture.isDue("weekdays", on: "2026-10-10") == false)
    }

    @Test("a library call that loops in C ends within its budget, at load time too", arguments: [
        "string.rep('', 1e15)", "table.move({}, 1, 1e15, 2)", "string.find(string.rep('a', 64), string.rep('a*', 30) .. 'b')",
    ])
    func boundedAtLoad(call: String) throws {
        let fixture = try PolicyFixture(["loader": "local x = \(call)\nreturn { isDue = function() return true end }\n"])
        let started = Date()
        let error = try #require(policyError { _ = try fixture.library.policy(named: "loader") })
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(error.description.contains("loader.lua"), "\(error)")
        #expect(try fixture.isDue("daily"))
    }

    @Test("a quota that asks for more days than its period has is refused", arguments: [
        ("{ times = 2147483648, per = 'week' }", "times is 2147483648, but a week has at most 7 days"),
        ("{ times = 8, per = 'week' }", "times is 8, but a week has at most 7 days"),
        ("{ times = 32, per = 'month' }", "times is 32, but a month has at most 31 days"),
        ("{ times = 6, per = 5 }", "times is 6, but 5 days has at most 5 days"),
    ])
    func quotaBounds(quota: String, message: String) throws {
        let fixture = try PolicyFixture(["quota": "return { quota = function() return \(quota) end, isDue = function() return true end }"])
        let binding = try fixture.library.policy(named: "quota").bind(parameters: [:], startedOn: day("2026-10-05"), goal: 1, unit: "")
        let error = try #require(policyError { _ = try binding.quota() })
        #expect(error.description.contains(message), "\(error)")
        let fine = try PolicyFixture(["quota": "return { quota = function() return { times = 7, per = 'week' } end, isDue = function() return true end }"])
        let bound = try fine.library.policy(named: "quota").bind(parameters: [:], startedOn: day("2026-10-05"), goal: 1, unit: "")
        #expect(try bound.quota() == PeriodQuota(times: 7, period: .week))
    }

    @Test("the libraries a policy must not reach are absent")
    func unsafeLibrariesAbsent() throws {
        let fixture = try PolicyFixture(["probe": schedule("""
            return io == nil and os == nil and require == nil and package == nil and debug == nil
              and dofile == nil and loadfile == nil and collectgarbage == nil and coroutine == nil
              and math.random == nil and math.randomseed == nil and string.dump == nil and print == nil
              and getmetatable('') == false and type(string.format) == 'function' and type(utf8.char) == 'function'
            """)])
        #expect(try fixture.isDue("probe"))
    }

    @Test("errors name the file and line")
    func errorLocation() throws {
        let fixture = try PolicyFixture(["located": "return { isDue = function(day)\n  local x = nil\n  return x.field\nend }\n"])
        let error = try #require(policyError { _ = try fixture.isDue("located") })
        #expect(error.line == 3)
        #expect(error.file?.hasSuffix("located.lua") == true)
        #expect(error.message.contains("attempt to index a nil value"))
    }

    @Test("a syntax error reports file:line and does not take other policies down")
    func syntaxError() throws {
        let fixture = try PolicyFixture(["broken": "return {\n isDue = function(day)\n  return day.weekday ==\n end }\n"])
        let error = try #require(policyError { _ = try fixture.library.policy(named: "broken") })
        #expect(error.kind == .script)
        #expect(error.line == 4)
        #expect(error.description.contains("broken.lua:4"))
        #expect(try fixture.isDue("weekdays", on: "2026-10-07"))
    }

    @Test("a file that returns a number, or no role, is refused")
    func wrongShape() throws {
        let fixture = try PolicyFixture(["number": "return 42", "empty": "return { description = 'nothing' }", "field": "return { isDue = 3 }"])
        for (name, message) in [("number", "must return a table"), ("empty", "defines none of the roles"), ("field", "'isDue' must be a function")] {
            let error = try #require(policyError { _ = try fixture.library.policy(named: name) }, "\(name) was accepted")
            #expect(error.description.contains(message), "\(error)")
            #expect(error.description.contains("\(name).lua"), "\(error)")
        }
    }

    @Test("a global one policy sets is invisible to another")
    func isolatedGlobals() throws {
        let fixture = try PolicyFixture([
            "setter": "shared = 42\nstring.upper = nil\nreturn { isDue = function() return shared == 42 end }",
            "reader": schedule("return shared == nil and string.upper('a') == 'A'"),
        ])
        #expect(try fixture.isDue("setter"))
        #expect(try fixture.isDue("reader"))
    }

    @Test("answers do not depend on call order or on hash order")
    func deterministic() throws {
        let fixture = try PolicyFixture(["ordered": """
            local seen = 0
            return { isDue = function(day)
              local t = { zulu = 1, alpha = 2, mike = 3, [3] = 'c', [1] = 'a', bravo = 4 }
              local keys = {}
              for k in pairs(t) do keys[#keys + 1] = tostring(k) end
              local first = next(t)
              return table.concat(keys, ',') == '1,3,alpha,bravo,mike,zulu' and first == 1 and tostring({}) == 'table: 1'
            end }
            """])
        for _ in 0..<3 { #expect(try fixture.isDue("ordered")) }
    }

    @Test("a table, function or userdata prints as its type and a number counted from 1 in each call, never an address")
    func printedWithoutAddresses() throws {
        let fixture = try PolicyFixture(["printer": schedule("""
            local t, f = {}, function() end
            local a = string.format("%s %s %s %d%%", t, f, t, 5)
            local b = tostring(f) .. " " .. tostring({})
            local c = string.format("%5s|%s", calendar.filter({months = {1}}), setmetatable({}, {__tostring = function() return "own" end}))
            return a == "table: 1 function: 2 table: 1 5%" and b == "function: 2 table: 3" and c == "userdata: 4|own"
            """)])
        // Each day is its own call: the numbering starts over every time.
        #expect(try fixture.dueDays("printer", from: "2026-10-01", to: "2026-10-07").count == 7)
    }

    @Test("the calendar refuses days and years it cannot count without overflow, naming the argument", arguments: [
        ("calendar.civil(math.maxinteger)", "bad argument #1 to 'civil' (a day number must be within ±1000000000000)"),
        ("calendar.weekday(-1000000000001)", "bad argument #1 to 'weekday' (a day number must be within ±1000000000000)"),
        ("calendar.ordinal(3000000001, 1, 1)", "bad argument #1 to 'ordinal' (a year must be within ±3000000000)"),
        ("calendar.ordinal(2026, 1, math.mininteger)", "bad argument #3 to 'ordinal' (a day number must be within ±1000000000000)"),
        ("calendar.select(math.maxinteger - 10, math.maxinteger, {})", "bad argument #1 to 'select' (a day number must be within ±1000000000000)"),
    ])
    func calendarRanges(_ call: String, _ message: String) throws {
        let fixture = try PolicyFixture(["far": schedule("return \(call) ~= nil")])
        let error = try #require(policyError { _ = try fixture.isDue("far") })
        #expect(error.kind == .script)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("calendar.select with a step past the range's end answers the anchor's day alone, if it is in the range")
    func hugeStep() throws {
        let fixture = try PolicyFixture(["stepper": schedule("""
            local days = calendar.select(0, 100, {}, 0, math.maxinteger)
            local from_five = calendar.select(0, 100, {}, 5, math.maxinteger)
            return #days == 1 and days[1] == 0 and #from_five == 1 and from_five[1] == 5
              and #calendar.select(0, 100, {}, 200, math.maxinteger) == 0 and #calendar.select(0, 100, {}, -7, math.maxinteger) == 0
            """)])
        #expect(try fixture.isDue("stepper"))
    }

    @Test("load refuses a chunk over 64 KiB before compiling it, and compiles one at the limit")
    func loadBounded() throws {
        let fixture = try PolicyFixture(["loader": schedule("""
            local head = "return 41 + 1 --"
            local fits = load(head .. (" "):rep(65536 - #head))
            local f, message = load(head .. (" "):rep(65537 - #head))
            return fits() == 42 and f == nil and message == "load: a chunk may have at most 65536 bytes (64 KiB) in policies"
            """)])
        #expect(try fixture.isDue("loader"))
    }

    @Test("the parameters a policy receives are its own copy")
    func parametersCopied() throws {
        let fixture = try PolicyFixture(["mutator": schedule("params.days = nil habit.goal = 99 return true")])
        let binding = try fixture.library.policy(named: "mutator").bind(parameters: ["days": .array([.string("mon")])], startedOn: day("2026-10-01"), goal: 1, unit: "")
        _ = try binding.dueDays(LocalDayRange(day("2026-10-01"), day("2026-10-03")))
        #expect(try binding.parametersJSON() == #"{"days":["mon"]}"#)
    }

    @Test("wrong answers from progress and streak are errors naming the policy", arguments: [
        ("return { progress = function() return 0/0 end }", "progress returned NaN"),
        ("return { progress = function() return 1/0 end }", "progress returned infinity"),
        ("return { progress = function() return -0.5 end }", "progress returned a negative number"),
        ("return { progress = function() return 'half' end }", "progress returned string"),
        ("return { streak = function() return 5 end }", "streak returned number"),
        ("return { streak = function(s) return { current = 1.5, longest = 2 } end }", "current is not a whole number"),
        ("return { streak = function(s) return { current = 1 } end }", "longest is not a whole number"),
    ])
    func wrongAnswers(source: String, message: String) throws {
        let fixture = try PolicyFixture(["wrong": source])
        let policy = try fixture.library.policy(named: "wrong")
        let binding = try policy.bind(parameters: [:], startedOn: day("2026-10-01"), goal: 8, unit: "cups")
        do {
            if policy.info.roles.contains(.progress) {
                _ = try binding.progress(totals: [3], days: LocalDayRange(day("2026-10-01"), day("2026-10-01")))
            } else {
                _ = try binding.streak(first: day("2026-10-01"), outcomes: [StreakOutcome(status: .completed, isDue: true, total: 1, progress: 1)])
            }
            Issue.record("expected an error")
        } catch let error as PolicyError {
            #expect(error.kind == .wrongAnswer)
            #expect(error.description.contains(message), "\(error)")
            #expect(error.description.hasPrefix("policy wrong"))
        }
    }

    @Test("budgets can be raised: a loop that a small budget stops passes under the default")
    func budgets() throws {
        let source = schedule("local n = 0 for i = 1, 200000 do n = n + i end return n > 0")
        let small = try PolicyFixture(["counting": source], budget: PolicyBudget(instructions: 200_000, memoryBytes: 1 << 20))
        #expect(throws: PolicyError.self) { try small.isDue("counting") }
        let standard = try PolicyFixture(["counting": source])
        #expect(try standard.isDue("counting"))
    }
}
