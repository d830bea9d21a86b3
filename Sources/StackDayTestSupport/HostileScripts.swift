/// Schedules written to hold, slow or exhaust a host, by class, at least two variants each: the
/// hostile-tenant suites run each through the Lua host, the command line and a real server.
public enum HostileScripts {
    /// One hostile schedule: `body` is the inside of `isDue(day, params, habit)`; `setup`, when
    /// given, runs when the file loads.
    public struct Script: CustomStringConvertible, Sendable {
        public let name: String
        public let setup: String
        public let body: String

        public init(name: String, setup: String, body: String) {
            self.name = name
            self.setup = setup
            self.body = body
        }

        public var description: String { name }

        /// The file's source.
        public var source: String {
            "\(setup)\nreturn { isDue = function(day, params, habit)\n\(body)\nend }\n"
        }
    }

    private static func s(_ name: String, setup: String = "", _ body: String) -> Script {
        Script(name: name, setup: setup, body: body)
    }

    /// Searches that cost n times m in Lua's own matcher, and answer in linear time in the host's.
    public static let linear: [Script] = [
        s("a plain find of a 1,000,000-character needle", linear(#"local n = ("a"):rep(1000000) .. "b" local h = ("a"):rep(2000000) return h:find(n, 1, true) == nil"#)),
        s("a find without specials, the same needle", linear(#"local n = ("a"):rep(1000000) .. "b" local h = ("a"):rep(2000000) .. n return h:find(n) == 2000001"#)),
        s("a needle that almost matches everywhere, found at the end", linear(#"local n = ("ab"):rep(100000) .. "c" local h = ("ab"):rep(1000000) .. n return h:find(n, 1, true) == 2000001"#)),
        // A bracket class Lua scans for every byte is compiled once into a set here.
        s("a 2,000,000-character bracket class", linear(#"local c = "[" .. ("b"):rep(2000000) .. "]" return ("a"):rep(1000):find(c .. "x") == nil"#)),
        s("a 2,000,000-character bracket class through gmatch", linear(#"local c = "[" .. ("b"):rep(2000000) .. "]" for _ in ("a"):rep(1000):gmatch(c) do end return true"#)),
    ]

    /// A day's answer is evaluated with its block of days: the search runs on 2026-10-05 alone.
    private static func linear(_ body: String) -> String {
        "if day.month ~= 10 or day.day ~= 5 then return true end\n" + body
    }

    /// Scripts that must end in a budget error (instructions, time or memory).
    public static let budget: [Script] = [
        // Counts given as strings pass a type(n) == "number" check.
        s("rep of an empty string, count as a string", #"return #string.rep("", "1e15") == 0"#),
        s("rep as a method, count as a string", #"return #(""):rep("100000000000000") == 0"#),
        s("rep with an empty separator, count as a string", #"return #("").rep("", "1e15", "") == 0"#),
        s("table.move, bounds as strings", #"table.move({}, "1", "1000000000000000", 2) return true"#),
        s("table.move, bounds as numbers", "table.move({}, 1, 1e15, 2) return true"),
        // A length metamethod that lies.
        s("table.insert on a table whose __len is 1e15", "local t = setmetatable({}, {__len = function() return 1e15 end}) table.insert(t, 1, 0) return true"),
        s("table.remove on a table whose __len is 1e15", "local t = setmetatable({}, {__len = function() return 1e15 end}) table.remove(t, 1) return true"),
        // Patterns whose backtracking is exponential.
        s("a? repeated 40 times", #"return ("a"):rep(40):match(("a?"):rep(40) .. ("a"):rep(40)) ~= nil"#),
        s("a? repeated 30 times through find", #"return ("a"):rep(30):find(("a?"):rep(30) .. ("a"):rep(30)) ~= nil"#),
        s("a number as the subject", #"return string.find(9223372036854775807, ("%d*"):rep(40) .. "x") ~= nil"#),
        s("a number as the subject of match", #"return string.match(12345678901234, ("%d-"):rep(30) .. "x") ~= nil"#),
        s("nested .- through gsub", #"return select(2, ("a"):rep(3000):gsub(".-.-.-.-b", "")) >= 0"#),
        // Counts whose difference wraps around the integers.
        s("table.concat over mininteger … maxinteger", #"return table.concat(setmetatable({}, {__index = function() return "" end}), "", math.mininteger, math.maxinteger) ~= nil"#),
        s("table.move over mininteger … maxinteger", "table.move({}, math.mininteger, math.maxinteger, 1) return true"),
        // Comparisons that read whole strings in one C call.
        s("sorting two 30 MB strings in a loop", #"local a = ("x"):rep(30000000) local t = {a, a .. "y"} while true do table.sort(t) t[1], t[2] = t[2], t[1] end"#),
        // A back-reference to a position capture never matches, but .- tries it at every length.
        s("a back-reference to a position capture", #"return ("a"):rep(200000):find("().-%1") ~= nil"#),
        s("a back-reference to a position capture through gsub", #"return select(2, ("ab"):rep(100000):gsub("()a.-%1", "")) >= 0"#),
        // Copying in few instructions.
        s("s = s .. 'x' forever", #"local s = "" while true do s = s .. "x" end"#),
        s("s = s .. 'xy' in a numeric loop", #"local s = "" for i = 1, 1e12 do s = s .. "xy" end return true"#),
        s("upper on a 20 MB string in a loop", #"local s = ("x"):rep(20000000) while true do s:upper() end"#),
        s("reverse on a 20 MB string in a loop", #"local s = ("x"):rep(20000000) while true do s:reverse() end"#),
        // A VM instruction that does a lot: comparing long strings, scanning them.
        s("comparing two 30 MB strings in a loop", #"local a = ("x"):rep(30000000) local b = a .. "y" while true do local _ = a < b end"#),
        s("utf8.len of a 30 MB string in a loop", #"local a = ("x"):rep(30000000) while true do utf8.len(a) end"#),
        s("an endless loop in pcall's handler", "while true do xpcall(function() while true do end end, function() while true do end end) end"),
    ]

    /// Scripts whose error object would run code while the error is reported: they end at once
    /// with a script error (the object's fields are read raw).
    public static let errorObjects: [Script] = [
        s("a copying loop in an error object's __index",
          #"error(setmetatable({}, {__index = function() local s = "" while true do s = s .. "x" end end}))"#),
        s("an endless loop in an error object's __index", "error(setmetatable({}, {__index = function() while true do end end}))"),
        s("an endless loop in an error object's __tostring", "error(setmetatable({}, {__tostring = function() while true do end end}))"),
    ]

    /// Scripts that must be refused with a script error naming `__gc` or `__mode`.
    public static let finalizers: [Script] = [
        s("a __gc table hidden behind __metatable",
          setup: "local evil = {__gc = function() while true do end end} setmetatable(_G, {__metatable = evil})", "return true"),
        s("__gc added to a metatable after setmetatable",
          "local mt = {} setmetatable({}, mt) mt.__gc = function() while true do end end return true"),
        s("__gc rawset into a metatable after setmetatable",
          "local mt = {} setmetatable({}, mt) rawset(mt, '__gc', function() while true do end end) return true"),
        s("__mode added to a metatable after setmetatable", "local mt = {} local t = setmetatable({}, mt) mt.__mode = 'k' return true"),
        s("a weak table", "local t = setmetatable({}, {__mode = 'v'}) return true"),
    ]

    /// A schedule whose error message is 20 MB long.
    public static let longMessage = s("a 20 MB error message", #"error(("x"):rep(20000000))"#)
}
