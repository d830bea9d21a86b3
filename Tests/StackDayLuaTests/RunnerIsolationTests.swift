import Foundation
import Testing
import StackDay
@testable import StackDayLua

/// One runner serves every user: what one user's script leaves behind in any place it can reach
/// must be gone, or never have been shared, when another user's script runs in the same runner.
@Suite("policy runners: one Lua state for every user, nothing shared between users")
struct RunnerIsolationTests {
    /// Tries to leave "mark" in every place a policy can reach that outlives its call; each
    /// attempt may fail (a read-only table), and the failure is swallowed.
    static let writer = """
    local kept = {}
    local function try(f) pcall(f) end
    return {
      isDue = function(day, params)
        try(function() calendar.mark = "mark" end)
        try(function() rawset(calendar, "mark", "mark") end)
        try(function() setmetatable(calendar, {__index = function() return "mark" end}) end)
        try(function() string.mark = "mark" end)
        try(function() table.mark = "mark" end)
        try(function() math.mark = "mark" end)
        try(function() utf8.mark = "mark" end)
        try(function() getmetatable("").__index.mark = "mark" end)
        try(function() getmetatable("").__metatable = "mark" end)
        try(function() mark = "mark" end)
        try(function() rawset(_G, "mark", "mark") end)
        try(function() _G.mark = "mark" end)
        try(function() _ENV.mark = "mark" end)
        try(function() setmetatable(_G, {__index = function() return "mark" end}) end)
        try(function() package = {loaded = {mark = "mark"}} end)
        try(function() day.mark = "mark" end)
        try(function() params.mark = "mark" end)
        try(function() getmetatable(day).mark = "mark" end)
        kept.mark = "mark"
        try(function() local f = load("mark = 'mark'") if f then f() end end)
        try(function() local f = load("return function() end", "x", "t", {}) end)
        return true
      end
    }
    """

    /// Looks in each of those places (and a few more) and fails naming the first that holds a mark.
    static let reader = """
    local kept = {}
    local function seen(where, value)
      if value == "mark" then error("found the other user's mark in " .. where, 0) end
    end
    return {
      isDue = function(day, params)
        seen("calendar", calendar.mark)
        seen("calendar's metatable", (getmetatable(calendar) or {}).mark)
        seen("string", string.mark)
        seen("a string's methods", ("").mark)
        seen("table", table.mark)
        seen("math", math.mark)
        seen("utf8", utf8.mark)
        seen("the string metatable", getmetatable(""))
        seen("a global", mark)
        seen("a global read raw", rawget(_G, "mark"))
        seen("package", package and package.loaded and package.loaded.mark)
        seen("the day view", day.mark)
        seen("the parameters", params.mark)
        seen("the module's upvalues", kept.mark)
        local f = load("return mark")
        seen("a loaded chunk's globals", f and f())
        for key, value in pairs(_G) do seen("global " .. tostring(key), value) end
        for key, value in pairs(string) do seen("string." .. tostring(key), value) end
        return true
      end
    }
    """

    /// The same script for both users: the first user's call writes into the script's own
    /// upvalues and globals-by-proxy; the second user's call, a new instance, must find none.
    static let both = """
    local kept = {}
    return {
      params = {role = "read"},
      isDue = function(day, params)
        if params.role == "write" then
          kept.mark = "mark"
          return true
        end
        if kept.mark then error("found the other user's mark in the module's upvalues", 0) end
        return true
      end
    }
    """

    static func call(_ service: PolicyRunnerService, _ name: String, _ source: String, parameters: String = "", sendSource: Bool = true,
                     owner: String = "ana") -> RunnerReply {
        let script = PolicyScript(name: name, source: source, installedAt: Date())
        var call = RunnerCall(.due, share: RequestShare(instructions: 100_000_000, cpuNanoseconds: 2_000_000_000, budget: .standard),
                              name: name, file: "\(name).lua@\(script.shortHash)", sha256: script.sha256)
        call.scripts[0].source = sendSource ? source : nil
        call.owner = owner
        call.parametersJSON = parameters
        call.startedOn = (try? LocalDay(iso: "2026-10-01"))?.ordinal ?? 0
        call.first = call.startedOn
        call.count = 7
        return service.answer(call)
    }

    @Test("a script that marks every reachable shared place leaves nothing another user's script can find")
    func sharedPlaces() throws {
        let service = try PolicyRunnerService(budget: .standard)
        let wrote = Self.call(service, "writer", Self.writer)
        #expect(wrote.status == .ok, "\(String(describing: wrote.error))")
        let read = Self.call(service, "reader", Self.reader, owner: "bob")
        #expect(read.status == .ok, "\(String(describing: read.error))")
        #expect(read.flags == [1, 1, 1, 1, 1, 1, 1])
        // The reader itself can find a mark it leaves (the check is not blind).
        let blind = Self.call(service, "blind", "local kept = {mark = 'mark'}\n" + Self.reader.replacingOccurrences(of: "local kept = {}\n", with: ""),
                              owner: "cy")
        #expect(blind.status == .failed && blind.error?.message.contains("module's upvalues") == true, "\(String(describing: blind.error))")
    }

    @Test("two users of one script each get an instance of their own: its upvalues are not shared, even when compiled once")
    func sameScript() throws {
        let service = try PolicyRunnerService(budget: .standard)
        let wrote = Self.call(service, "both", Self.both, parameters: #"{"role":"write"}"#)
        #expect(wrote.status == .ok, "\(String(describing: wrote.error))")
        // Another user, sent no source: the runner runs the bytecode it compiled for the first
        // call, in an instance of that user's own.
        let read = Self.call(service, "both", Self.both, sendSource: false, owner: "bob")
        #expect(read.status == .ok, "\(String(describing: read.error))")
        #expect(read.flags.count == 7)
        // The first user's own later call does see its instance (the check is not blind).
        let own = Self.call(service, "both", Self.both, sendSource: false, owner: "ana")
        #expect(own.status == .failed && own.error?.message.contains("module's upvalues") == true, "\(String(describing: own.error))")
    }

    @Test("a runner that was not sent a script's source asks for it, and refuses a source that does not match its hash")
    func sources() throws {
        let service = try PolicyRunnerService(budget: .standard)
        #expect(Self.call(service, "daily", "return {isDue = function() return true end}", sendSource: false).status == .needsSource)
        var call = RunnerCall(.describe, share: RequestShare(instructions: 1_000_000, cpuNanoseconds: 1_000_000_000, budget: .standard),
                              name: "forged", file: "forged.lua", sha256: String(repeating: "0", count: 64))
        call.scripts[0].source = "return {isDue = function() return true end}"
        let forged = service.answer(call)
        #expect(forged.status == .failed && forged.error?.message.contains("hash") == true)
    }
}
