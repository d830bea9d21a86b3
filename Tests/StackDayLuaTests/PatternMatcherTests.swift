import CLua
import CLuaHost
import Foundation
import Testing

/// A plain Lua state holding both Lua's own string library and the policies' pattern functions
/// (as the global `ours`): the matcher is checked against the real thing in the same process.
final class PatternComparison {
    let state: OpaquePointer

    init() throws {
        state = try #require(luaL_newstate())
        luaL_openlibs(state)
        sd_push_matcher(state)
        lua_setglobal(state, "ours")
    }

    deinit { lua_close(state) }

    /// Runs `chunk`, a function body of `F` (a library: `string` or `ours`) returning one string,
    /// once with each library; the text each returned or the error each raised.
    func run(_ chunk: String) throws -> (lua: String, ours: String) {
        let source = "local F = ... return \(chunk)"
        return (try call(source, library: "string"), try call(source, library: "ours"))
    }

    /// Loads `source` and calls it with the global `library`, then further `arguments`.
    func call(_ source: String, library: String, arguments: [Int64] = []) throws -> String {
        #expect(stackday_luaL_loadbufferx(state, source, source.utf8.count, "=case", "t") == LUA_OK)
        lua_getglobal(state, library)
        for argument in arguments { lua_pushinteger(state, argument) }
        let status = stackday_lua_pcall(state, Int32(1 + arguments.count), 1, 0)
        defer { stackday_lua_pop(state, 1) }
        let text = stackday_lua_tostring(state, -1).map { String(cString: $0) } ?? "(no text)"
        return status == LUA_OK ? text : "error: \(text)"
    }
}

@Suite("Pattern matcher: Lua 5.4's results and errors, on a machine of our own")
struct PatternMatcherTests {
    /// Every error text the four functions raise (after the position of the line that called them), and the cases where Lua raises none because no
    /// match reached the malformed part.
    static let errorCases: [(chunk: String, expected: String)] = [
        (#"F.find("a", "%")"#, "error: case:1: malformed pattern (ends with '%')"),
        (#"F.find("a", "[a")"#, "error: case:1: malformed pattern (missing ']')"),
        (#"F.find("a", "[^]")"#, "error: case:1: malformed pattern (missing ']')"),
        (#"F.find("a", "%b")"#, "error: case:1: malformed pattern (missing arguments to '%b')"),
        (#"F.find("a", "%bx")"#, "error: case:1: malformed pattern (missing arguments to '%b')"),
        (#"F.find("a", "%fx")"#, "error: case:1: missing '[' after '%f' in pattern"),
        (#"F.find("a", "%f[a")"#, "error: case:1: malformed pattern (missing ']')"),
        (#"F.find("a", "%0")"#, "error: case:1: invalid capture index %0"),
        (#"F.find("a", "(a%1)")"#, "error: case:1: invalid capture index %1"),
        (#"F.find("a", "(a)%2")"#, "error: case:1: invalid capture index %2"),
        (#"F.match("a", "a)")"#, "error: case:1: invalid pattern capture"),
        (#"F.match("a", "(a")"#, "error: case:1: unfinished capture"),
        (#"F.match("a", ("()"):rep(33))"#, "error: case:1: too many captures"),
        (#"F.find(("a"):rep(300), ("a?"):rep(200))"#, "error: case:1: pattern too complex"),
        (#"tostring(F.find(("a"):rep(300), ("a?"):rep(199)))"#, "1"),
        (#"F.gsub("abc", "b", "%x")"#, "error: case:1: invalid use of '%' in replacement string"),
        (#"F.gsub("abc", "b", "%")"#, "error: case:1: invalid use of '%' in replacement string"),
        (#"F.gsub("abc", "(b)", "%2")"#, "error: case:1: invalid capture index %2"),
        (#"F.gsub("abc", "(b", "%1")"#, "error: case:1: unfinished capture"),
        (#"F.gsub("abc", "b", {b = {}})"#, "error: case:1: invalid replacement value (a table)"),
        (#"F.gsub("abc", "b", function() return true end)"#, "error: case:1: invalid replacement value (a boolean)"),
        (#"F.gsub("abc", "b")"#, "error: case:1: bad argument #3 to 'gsub' (string/function/table expected, got no value)"),
        (#"F.gsub("abc", "b", "x", "y")"#, "error: case:1: bad argument #4 to 'gsub' (number expected, got string)"),
        (#"F.find({}, "a")"#, "error: case:1: bad argument #1 to 'find' (string expected, got table)"),
        (#"F.find("a", "a", "x")"#, "error: case:1: bad argument #3 to 'find' (number expected, got string)"),
        (#"F.gmatch("a")"#, "error: case:1: bad argument #2 to 'gmatch' (string expected, got no value)"),
        // A malformed part no match reaches raises nothing.
        (#"tostring(F.find("b", "a["))"#, "nil"),
        (#"F.gsub("abc", "[", "x", 0)"#, "abc"),
        // %z (NUL) is still accepted.
        (#"F.find("a\0b", "%z")"#, "2"),
        (#"tostring(F.match("\0", "%Z"))"#, "nil"),
        // A back-reference to a position capture never matches text.
        (#"tostring(F.find("aa", "()a%1"))"#, "nil"),
    ]

    @Test("each error text, and each error not raised, as Lua's", arguments: errorCases)
    func errorText(_ chunk: String, _ expected: String) throws {
        let (lua, ours) = try PatternComparison().run(chunk)
        #expect(lua == expected, "Lua itself: \(chunk)")
        #expect(ours == expected, "ours: \(chunk)")
    }

    /// Generated patterns and subjects through both. STACKDAY_PATTERN_SEED and
    /// STACKDAY_PATTERN_CASES run others (millions: `STACKDAY_PATTERN_CASES=5000000`).
    @Test("generated cases agree with Lua's own")
    func differential() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["STACKDAY_PATTERN_SEED"].flatMap(Int64.init) ?? 20_261_203
        let cases = environment["STACKDAY_PATTERN_CASES"].flatMap(Int64.init) ?? 100_000
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pattern-differential.lua")
        let source = try String(contentsOf: url, encoding: .utf8)
        let report = try PatternComparison().call(source, library: "ours", arguments: [seed, cases])
        #expect(report.hasPrefix("\(cases) cases, 0 differences"), "seed \(seed):\n\(report)")
    }

    @Test("a pattern used again answers alike from its kept program")
    func programsKept() throws {
        let comparison = try PatternComparison()
        let chunk = #"(function() local t = {} for i = 1, 3 do t[i] = F.gsub("2026-12-03", "(%d+)-(%d+)-(%d+)", "%3.%2.%1") end return table.concat(t, " ") end)()"#
        let (lua, ours) = try comparison.run(chunk)
        #expect(ours == lua)
        #expect(ours == "03.12.2026 03.12.2026 03.12.2026")
    }
}
